/**
 * The Tune panel (issue 32): a small failure profile and goals tuned in the browser (a Web
 * Worker runs the core's tuner), the ranked list and the Pareto chart; "Open" a recommendation
 * as a design (one undo step back); an infeasible profile names its goal. At 1440x900 and 1280x800.
 */
import type { Page } from 'playwright-core';
import type { Flow } from '../lib/harness.js';
import { assert, waitFor } from '../lib/harness.js';
import { openTemplate, SIZES } from '../lib/steps.js';

/**
 * The Tune tab's small profile (2 msg/s for 10 s, a 2 s outage, no poison, a 5 s deadline) run
 * until the ranked list shows (the Tune flow and the Rehearse flow's Compare both start from it).
 */
export async function tuneSmallProfile(page: Page): Promise<void> {
  await page.click('[data-testid=tab-tune]');
  await page.fill('[data-testid=tune-rate]', '2');
  await page.fill('[data-testid=tune-duration]', '10');
  await page.fill('[data-testid=tune-outage]', '2');
  await page.fill('[data-testid=tune-poison]', '0');
  await page.fill('[data-testid=tune-deadline]', '5');
  await page.click('[data-testid=tune-run]');
  await waitFor(
    'recommendations',
    async () => (await page.locator('[data-testid=tune-recommendation]').count()) >= 1,
    240_000,
  );
}

export const tuneFlow: Flow = {
  name: 'tune: profile and goals, ranked designs, Pareto, open one, infeasible named',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await openTemplate(page, url, s, 'dlx-ttl-wait-queue');
      const before = await page.inputValue('[data-testid=design-name]');
      await tuneSmallProfile(page);
      const first = await page.locator('[data-testid=tune-recommendation]').first().innerText();
      assert(/amplification/.test(first) && /p99/.test(first), `a recommendation shows its figures: ${first}`);
      assert((await page.locator('[data-testid=tune-pareto] circle').count()) >= 1, 'the Pareto front is drawn');
      assert(
        (await page.locator('[data-testid=tune-pareto-xtick]').count()) >= 1 &&
          (await page.locator('[data-testid=tune-pareto-ytick]').count()) >= 2,
        'the Pareto chart has tick values',
      );
      const robust = await page.locator('[data-testid=tune-robustness]').first().innerText();
      assert(/at twice the outage \(4 min\)/.test(robust), `robustness shown: ${robust}`);
      assert(!/\d\.\d+ ms|\b0% for \+0%/.test(first), `units, no raw ms: ${first}`);
      assert(/RAM .*(B|KiB|MiB)/.test(first), `RAM in binary units: ${first}`);
      assert(/Best: /.test(await page.locator('[data-testid=tune-verdict]').innerText()), 'the answer first');
      await shot(`tune-${s.w}`);
      await page.locator('[data-testid=tune-open]').first().click();
      await waitFor(
        'tuned design opened',
        async () => /tuned/.test(await page.inputValue('[data-testid=design-name]')),
        10_000,
      );
      await page.locator('.react-flow__pane').click();
      await page.keyboard.press('Control+z');
      await waitFor(
        'one undo step back',
        async () => (await page.inputValue('[data-testid=design-name]')) === before,
        10_000,
      );
      // a deadline shorter than the outage: nothing is feasible, and the goal is named
      await page.fill('[data-testid=tune-deadline]', '1');
      await page.click('[data-testid=tune-run]');
      await waitFor(
        'infeasible',
        async () => (await page.locator('[data-testid=tune-infeasible]').count()) === 1,
        60_000,
      );
      const why = await page.locator('[data-testid=tune-infeasible]').innerText();
      assert(/ruled out by deadline/.test(why), `the ruling goal is named: ${why}`);
      await shot(`tune-infeasible-${s.w}`);
    }
  },
};
