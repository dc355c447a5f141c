/**
 * Issue 41 (item 5) with the framework issue's `discarded` outcome: an application whose failures are
 * discarded (MassTransit's DiscardFaultedMessages; Spring AMQP's stateless retry with no recoverer) is
 * never shown acked or green: not on the timeline's lanes, the canvas's tokens, the message detail,
 * the Inspect tab's stated fate and last simulation, nor the retry budget; the timeline lists it whole
 * above the lanes. Real files from the app corpus, at 1280x800 and 1440x900. Name starts with "browser-finish:".
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { blankStart, designName, openFile, SIZES } from '../lib/steps.js';
import { ROOT } from '../lib/server.js';

const APPS = [
  { file: 'masstransit/FulfillOrderConsumerDefinition.cs', consumer: 'FulfillOrder' },
  { file: 'spring-amqp/RabbitMQExceptionHandling.java', consumer: 'listener-listener.queue' },
] as const;

const appFile = (f: string) => ({
  name: basename(f),
  text: readFileSync(join(ROOT, 'apps/server/src/cli/appcorpus', f), 'utf8'),
  mimeType: 'text/plain',
});

/** the core's words for a discarded message, and never an ack of its own ("acked by ...", "acked at attempt") */
const DISCARDED = /^discarded by /;
const ACKED = /(^|[;:.] )acked (by|at)\b/;

/** the simulated run's tokens, as the canvas draws them: their fate kinds */
const tokenFates = (page: Page) =>
  page.evaluate(
    `(window.__overlay?.player?.plans?.sim?.tracks ?? []).map((t) => t.fate ? t.fate.kind : 'none')`,
  ) as Promise<string[]>;

export const discardedFlow: Flow = {
  name: 'browser-finish: failures an application discards are never shown acked or green (lanes, tokens, detail, Inspect, budget)',
  async run({ page, url, shot }) {
    for (const size of SIZES) {
      for (const { file, consumer } of APPS) {
        const key = `${basename(file)}@${size.w}`;
        await blankStart(page, url, size);
        await openFile(page, appFile(file), 'import-app-files');
        const name = basename(file).replace(/\.[^.]+$/, '');
        await waitFor(`${key} open`, async () => (await designName(page)) === name, 20_000);
        // Inspect: the fate the design is stated to give a message that always fails
        await page.click('[data-testid=tab-inspect]');
        const stated = await page.locator('[data-testid=stated-fate]').first().innerText();
        assert(/discarded by/.test(stated) && !ACKED.test(stated), `${key}: Inspect's stated fate (${stated})`);
        // the consumer's face says it discards
        const face = (await page.locator(`.react-flow__node[data-id="consumer:${consumer}"]`).innerText()) ?? '';
        const title =
          (await page
            .locator(`.react-flow__node[data-id="consumer:${consumer}"] [data-testid=node-consumer]`)
            .getAttribute('title')) ?? '';
        assert(/discard/.test(`${face}\n${title}`), `${key}: the consumer's face says it discards (${title})`);

        await page.selectOption('[data-testid=sim-failure]', 'always');
        await page.fill('[data-testid=sim-count]', '2');
        await page.click('[data-testid=sim-run]');
        await page.waitForSelector('[data-testid=timeline-lane]');
        const lanes = await page
          .locator('[data-testid=lane-outcome]')
          .evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', cls: e.className })));
        assert(lanes.length === 2, `${key}: two lanes (${lanes.length})`);
        for (const l of lanes) {
          assert(DISCARDED.test(l.text) && !ACKED.test(l.text), `${key}: the lane says discarded (${l.text})`);
          assert(!/emerald|green/.test(l.cls) && /red/.test(l.cls), `${key}: the lane is not green (${l.cls})`);
        }
        // the outcome list above the lanes says it whole, once (a lane's column cut it: 'discarded by FulfillOrder at …')
        const listed = await page
          .locator('[data-testid=timeline-outcome]')
          .evaluateAll((els) =>
            els.map((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 })),
          );
        assert(
          listed.length === 1 && listed[0]!.text.includes(lanes[0]!.text) && !listed[0]!.cut,
          `${key}: the outcome listed whole above the lanes (${JSON.stringify(listed)})`,
        );
        // the tokens read the same outcome: a loss, never an ack
        const fates = await tokenFates(page);
        assert(
          fates.length === 2 && fates.every((f) => f === 'discarded'),
          `${key}: the canvas's tokens end discarded (${fates.join(', ')})`,
        );
        const summary = await page.locator('[data-testid=summary-outcomes]').innerText();
        assert(
          /2 messages: discarded by /.test(summary) && !ACKED.test(summary),
          `${key}: Inspect's last simulation (${summary})`,
        );
        await shot(`${basename(file)}-${size.w}-lanes`);

        // the message detail: its outcome, and its last settlement named as the application giving up
        await page.locator('[data-testid=timeline-lane]').first().click();
        const detail = await page.locator('[data-testid=message-outcome]').innerText();
        assert(detail === lanes[0]!.text, `${key}: the detail states the lane's outcome (${detail})`);
        const cls = (await page.locator('[data-testid=message-outcome]').getAttribute('class')) ?? '';
        assert(!/emerald|green/.test(cls), `${key}: the detail is not green (${cls})`);
        const path = await page.locator('[data-testid=message-detail]').innerText();
        assert(
          /discarded .* \(basic\.ack after giving up: lost\)/.test(path) && !/\nacked /.test(path),
          `${key}: the path names the discard, no plain ack (${path.slice(-300)})`,
        );
        await shot(`${basename(file)}-${size.w}-detail`);
        await page.click('[data-testid=message-close]');

        // the retry budget states the same outcome
        await page.click('[data-testid=tab-budget]');
        await page.click('[data-testid=budget-compute]');
        await waitFor('budget rows', async () => (await page.locator('[data-testid=budget-row]').count()) >= 1, 30_000);
        const budget = await page.locator('[data-testid=budget-row] [data-testid=budget-outcome]').allInnerTexts();
        assert(
          budget.some((b) => DISCARDED.test(b)) && !budget.some((b) => ACKED.test(b)),
          `${key}: the budget says discarded (${budget.join(' | ')})`,
        );
        const budgetCls = await page
          .locator('[data-testid=budget-row] [data-testid=budget-outcome]')
          .evaluateAll((els) => els.map((e) => e.className).join(' '));
        assert(!/emerald|green/.test(budgetCls), `${key}: the budget's outcome is not green (${budgetCls})`);
        await page.click('[data-testid=tab-timeline]');
      }
    }
  },
};
