/**
 * The Rehearse tab (issue 31 point 6, issue 32 point 4, issue 41 item 6): a rehearsal of
 * dlx-ttl-wait-queue with an outage opens with its verdict in words, draws depth over time and the
 * node's RAM and disk on canvases, and shows the per-queue table (MiB) and the outcome counts, with
 * Run and the results in view; bad input marks its field and runs nothing; a template added to
 * the comparison draws a second series (its outage target said, not silently mapped); "Compare"
 * on a Tune recommendation lands in the Rehearse tab with both designs. At 1440x900 and 1280x800.
 */
import type { Page } from 'playwright-core';
import type { Flow } from '../lib/harness.js';
import { assert, waitFor } from '../lib/harness.js';
import { openTemplate, SIZES } from '../lib/steps.js';
import { readability } from '../lib/readability.js';
import { tuneSmallProfile } from './tuneFlows.js';

/** pixels of the chart's canvas near a series colour (uPlot's first two: #38bdf8, #f472b6) */
async function pixelsOf(page: Page, rgb: readonly [number, number, number]): Promise<number> {
  return page.evaluate((c) => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=rehearse-chart] canvas');
    if (!canvas) return 0;
    const d = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
      if (
        Math.abs(d[i]! - c[0]) < 40 &&
        Math.abs(d[i + 1]! - c[1]) < 40 &&
        Math.abs(d[i + 2]! - c[2]) < 40 &&
        d[i + 3]! > 128
      )
        n++;
    return n;
  }, rgb);
}

const SKY = [56, 189, 248] as const;
const PINK = [244, 114, 182] as const;
const legendSeries = (page: Page) => page.locator('[data-testid=rehearse-chart] .u-legend .u-series').count();

export const rehearseFlow: Flow = {
  name: 'rehearse: outage on dlx-ttl-wait-queue, depth chart and outcomes, a template compared, Compare from Tune',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await openTemplate(page, url, s, 'dlx-ttl-wait-queue');
      await page.click('[data-testid=tab-rehearse]');
      // the canvas the taller panel leaves: every setting that defines the retry still whole on its node
      const faces = await waitFor('the canvas fitted to the room left', async () => {
        const r = await readability(page);
        return r.nodes > 0 && r.squeezed.length === 0 && r.clipped.length === 0 ? r : null;
      }).catch(async () => readability(page));
      assert(
        faces.squeezed.length === 0 && faces.clipped.length === 0,
        `no setting cut beside the Rehearse panel: ${[...faces.squeezed, ...faces.clipped].join('; ')}`,
      );
      const outages = await page.inputValue('[data-testid=rehearse-outages]');
      assert(/@1m\+2m/.test(outages), `the form starts with an outage on the design's worker: ${outages}`);

      // bad input: the field says why, and nothing runs
      await page.fill('[data-testid=rehearse-rate]', '0');
      await page.fill('[data-testid=rehearse-poison]', '120%');
      await page.click('[data-testid=rehearse-run]');
      const errs = await page.locator('[data-testid=rehearse-field-error]').allInnerTexts();
      assert(
        errs.some((e) => /rate/.test(e)) && errs.length >= 2,
        `the rate and poison fields say what is wrong: ${errs.join(' | ')}`,
      );
      assert((await page.locator('[data-testid=rehearse-chart]').count()) === 0, 'nothing ran');
      await shot(`rehearse-bad-input-${s.w}`);

      await page.fill('[data-testid=rehearse-rate]', '50');
      await page.fill('[data-testid=rehearse-poison]', '0.5%');
      await page.click('[data-testid=rehearse-run]');
      await waitFor('the depth chart', async () => (await pixelsOf(page, SKY)) > 30, 60_000);
      const acked = await page.locator('[data-testid=rehearse-acked]').innerText();
      assert(/acked\s+[0-9,]+/.test(acked) && !/acked\s+0$/.test(acked), `outcome counts appear: ${acked}`);
      const parked = await page.locator('[data-testid=rehearse-parked]').innerText();
      assert(/parked\s+[1-9]/.test(parked), `poison ends parked: ${parked}`);
      assert(
        /amplification/.test(await page.locator('[data-testid=rehearse-outcomes]').innerText()),
        'amplification shown',
      );
      assert(
        /p99/.test(await page.locator('[data-testid=rehearse-delay]').innerText()),
        'the delay distribution shown',
      );
      // the conclusion first, in the CLI's words: what peaks, the node, what is lost, when back to normal
      const verdict = await page.locator('[data-testid=rehearse-verdict]').innerText();
      assert(
        /peaks at/.test(verdict) && /The node peaks at .* RAM/.test(verdict),
        `the verdict says what peaks: ${verdict}`,
      );
      assert(
        /end parked/.test(verdict) && /Back to normal|Not back to normal/.test(verdict),
        `and what is lost: ${verdict}`,
      );
      const queues = await page.locator('[data-testid=rehearse-queues]').innerText();
      assert(
        /orders\.wait/.test(queues) && /(KiB|MiB|GiB|\d B)/.test(queues) && !/ MB\b/.test(queues),
        `queue table in MiB: ${queues}`,
      );
      assert(
        (await page.locator('[data-testid=rehearse-node-chart] canvas').count()) >= 1,
        "the node's RAM and disk chart",
      );
      // Run and the results in view at this size, without scrolling the page
      for (const id of ['rehearse-run', 'rehearse-verdict', 'rehearse-chart']) {
        const box = await page.locator(`[data-testid=${id}]`).boundingBox();
        assert(
          box !== null && box.y >= 0 && box.y + Math.min(box.height, 60) <= s.h,
          `${id} in view at ${s.w}x${s.h}: ${JSON.stringify(box)}`,
        );
      }
      await shot(`rehearse-${s.w}`);

      // a template under the same load: a second series on the same chart
      await page.selectOption('[data-testid=rehearse-template]', 'chained-ttl');
      await page.click('[data-testid=rehearse-add]');
      await page.click('[data-testid=rehearse-run]');
      await waitFor(
        'a column per design',
        async () => /chained-ttl/.test(await page.locator('[data-testid=rehearse-outcomes] thead').innerText()),
        60_000,
      );
      await waitFor(
        'two series',
        async () => (await legendSeries(page)) === 3 && (await pixelsOf(page, PINK)) > 30,
        10_000,
      );
      assert(
        /chained-ttl/.test(await page.locator('[data-testid=rehearse-chart] .u-legend').innerText()),
        'the legend names the template',
      );
      const note = await page.locator('[data-testid=rehearse-note]').first().innerText();
      assert(
        /chained-ttl has no "worker": its workers .* stop instead/.test(note),
        `the mapped target is said: ${note}`,
      );
      await shot(`rehearse-compare-${s.w}`);

      // Compare on a Tune recommendation
      await tuneSmallProfile(page);
      await page.locator('[data-testid=tune-compare]').first().click();
      await waitFor('the Rehearse tab', async () => page.locator('[data-testid=rehearse-panel]').isVisible(), 10_000);
      await waitFor(
        'the recommendation compared',
        async () => /tuned/.test(await page.locator('[data-testid=rehearse-compared]').first().innerText()),
        10_000,
      );
      await waitFor(
        'both designs rehearsed',
        async () => /tuned/.test(await page.locator('[data-testid=rehearse-outcomes] thead').innerText()),
        60_000,
      );
      await waitFor(
        'both designs drawn',
        async () => (await legendSeries(page)) === 3 && (await pixelsOf(page, PINK)) > 30,
        10_000,
      );
      assert((await page.inputValue('[data-testid=rehearse-rate]')) === '2', "the tuner's rate");
      await shot(`rehearse-from-tune-${s.w}`);
    }
  },
};
