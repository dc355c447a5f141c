/**
 * Issue 29: one outcome per message. quorum-delivery-limit (limit 2) on the 4.3 profile, failing
 * the first 3 attempts: RabbitMQ 4.3 does not count a basic.nack toward the delivery limit, so
 * the message is acked at attempt 4, only because the worker stopped failing. The timeline lane,
 * the message detail, the budget and the Inspect summary all say that one outcome; the
 * explanation says the text above describes 3.10. Screenshots at 1440x900 and 1280x800.
 */
import type { Flow } from '../lib/harness.js';
import { assert, waitFor } from '../lib/harness.js';

const ACKED =
  'acked by worker at attempt 4 (only because the worker stopped failing: failing every time, it never ends)';

export const outcomeTruthFlow: Flow = {
  name: 'outcome truth: lane, detail, budget and summary agree (quorum-delivery-limit on 4.3)',
  async run({ page, url, shot }) {
    for (const [w, h] of [
      [1440, 900],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${url}/?template=quorum-delivery-limit&deliveryLimit=2`);
      await page.waitForSelector('.react-flow__node');
      await page.selectOption('[data-testid=field-profile]', '4.3');
      const fate = await page.locator('[data-testid=design-settings] [data-testid=stated-fate]').innerText();
      assert(
        /^Not as the text above says on RabbitMQ 4\.3 \(it describes RabbitMQ 3\.10\): .*still moving/.test(fate),
        `the explanation's fate on 4.3: ${fate}`,
      );
      await page.selectOption('[data-testid=sim-failure]', 'failFirst');
      await page.fill('[data-testid=sim-k]', '3');
      await page.fill('[data-testid=sim-count]', '1');
      await page.click('[data-testid=sim-run]');
      await page.waitForSelector('[data-testid=timeline-lane]');
      const lane = await page.locator('[data-testid=lane-outcome]').first().innerText();
      assert(lane === ACKED, `lane: ${lane}`);
      const summary = await page.locator('[data-testid=summary-outcomes]').innerText();
      assert(summary.includes(`1 message: ${ACKED}`), `Inspect summary: ${summary}`);
      const lintLine = await page.locator('[data-testid=design-summary] p').first().innerText();
      assert(
        /lint finds [0-9]+ error/.test(lintLine) && !lintLine.includes('The design is valid.'),
        `summary beside lint errors: ${lintLine}`,
      );
      await shot(`summary-${w}`);
      await page.locator('[data-testid=timeline-lane]').first().click();
      const detail = await page.locator('[data-testid=message-outcome]').innerText();
      assert(detail === ACKED, `detail: ${detail}`);
      await page.click('[data-testid=tab-budget]');
      await page.click('[data-testid=budget-compute]');
      await waitFor('budget rows', async () => (await page.locator('[data-testid=budget-row]').count()) >= 1, 30_000);
      const budget = await page.locator('[data-testid=budget-row] [data-testid=budget-outcome]').first().innerText();
      assert(budget === ACKED, `budget: ${budget}`);
      await shot(`agree-${w}`);
      await page.keyboard.press('Escape');
    }
  },
};
