/**
 * Issue 41 items 5 and 7 (names start with "browser-flow:"), at 1280x800 and 1440x900: the screen
 * says only what the model knows. Inspect and Lint read one lint result; the 4.3 quorum template
 * opens under 4.3 and keeps no plugin warning there; an application's configuration says what
 * the CLI says (the stand-in queue beside its outcome); Celery's jittered waits are drawn as
 * ranges; MassTransit's ConcurrentMessageLimit runs (and draws) the messages at once; a node click
 * opens the node inspector while a message is inspected, and one click goes back to it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { springBootYml } from '@retry-studio/topology-core/testing/appconfig';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { ROOT } from '../lib/server.js';
import { blankStart, openFile, openTemplate, SIZES } from '../lib/steps.js';

const appCorpus = (name: string) => readFileSync(join(ROOT, 'apps', 'server', 'src', 'cli', 'appcorpus', name));

const lintBadge = async (page: Page): Promise<number> =>
  Number(
    (await page
      .locator('[data-testid=tab-lint] span')
      .innerText()
      .catch(() => '0')) || '0',
  );

/** where each simulated message is first delivered (virtual ms), from the run the canvas plays */
const firstDeliveries = (page: Page) =>
  page.evaluate(() => {
    const o = (
      window as unknown as {
        __overlay: { player: { plans: { sim: { events: { kind: string; msgId: string; t: number }[] } | null } } };
      }
    ).__overlay;
    const firsts = new Map<string, number>();
    for (const e of o.player.plans.sim?.events ?? [])
      if (e.kind === 'delivered' && !firsts.has(e.msgId)) firsts.set(e.msgId, e.t);
    return [...firsts.values()];
  });

async function simulateAlwaysFailing(page: Page, messages: number): Promise<void> {
  await page.selectOption('[data-testid=sim-failure]', 'always');
  await page.fill('[data-testid=sim-count]', String(messages));
  await page.click('[data-testid=sim-run]');
  await waitFor('the lanes', async () => (await page.locator('[data-testid=timeline-lane]').count()) === messages);
}

async function lintReadsOneResult(
  page: Page,
  url: string,
  s: { w: number; h: number },
  at: (n: string) => Promise<void>,
) {
  // radlx-simple: one finding, a warning (its plugin: a broker without it refuses the import), the badge says 1, so does Inspect
  await openTemplate(page, url, s, 'radlx-simple');
  await page.click('[data-testid=tab-inspect]');
  const verdict = await page.locator('[data-testid=lint-verdict]').innerText();
  assert((await lintBadge(page)) === 1, 'the Lint badge counts the plugin warning');
  assert(/lint finds 1 warning/.test(verdict) && !/finds nothing/.test(verdict), `Inspect says so: ${verdict}`);
  await at('lint-one-result');
  // the 4.3 quorum template: opened under 4.3, no plugin warning there
  await openTemplate(page, url, s, 'quorum-delayed-retry');
  assert((await page.inputValue('[data-testid=field-profile]')) === '4.3', 'opens under the profile it is for');
  await page.click('[data-testid=tab-lint]');
  const rules = await page
    .locator('[data-testid=lint-finding]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
  assert(!rules.includes('plugin-required'), `no plugin warning on 4.3: ${rules.join(', ')}`);
  await at('quorum-43');
}

async function appConfigSaysWhatTheCliSays(page: Page, at: (n: string) => Promise<void>) {
  // Spring Boot with no definitions: the listener reads a queue the tool invents, and the banner says so beside its outcome
  await openFile(
    page,
    { name: 'application.yml', text: springBootYml({ enabled: true, maxAttempts: 3 }) },
    'import-app-files',
  );
  const notes = await waitFor('the import notes', async () =>
    (await page.locator('[data-testid=import-notes]').count())
      ? page.locator('[data-testid=import-notes]').innerText()
      : undefined,
  );
  assert(
    /as retry-studio import-app reads it/.test(notes) &&
      /dropped in app\.queue/.test(notes) &&
      /stand-in queue "app\.queue"/.test(notes),
    `the CLI's summary, stand-in and all: ${notes}`,
  );
  await at('app-config-stand-in');
}

async function celeryJitterIsARange(page: Page, at: (n: string) => Promise<void>) {
  // retry_backoff=True with jitter on (the default): the waits 1, 2, 4 s are upper bounds
  await openFile(
    page,
    { name: 'written_autoretry_tasks.py', text: appCorpus('celery/written_autoretry_tasks.py') },
    'import-app-files',
  );
  await page.waitForSelector('[data-testid=node-consumer]');
  await simulateAlwaysFailing(page, 2);
  await page.click('[data-testid=tab-timeline]');
  assert((await page.locator('[data-testid=timeline-jitter-legend]').count()) === 1, 'the legend says what a range is');
  const ranges = await page.locator('[data-testid=jitter-range]').count();
  assert(ranges === 6, `each lane's three retries drawn as ranges: ${ranges}`);
  await at('celery-jitter');
}

async function concurrencyIsDrawnAtOnce(page: Page, at: (n: string) => Promise<void>) {
  await openFile(
    page,
    { name: 'SubmitOrderConsumerDefinition.cs', text: appCorpus('masstransit/SubmitOrderConsumerDefinition.cs') },
    'import-app-files',
  );
  await page.waitForSelector('[data-testid=node-consumer]');
  await simulateAlwaysFailing(page, 3);
  const firsts = await firstDeliveries(page);
  assert(
    firsts.length === 3 && firsts.every((t) => t === 0),
    `ConcurrentMessageLimit 20: all three at once: ${firsts}`,
  );
  await page.waitForTimeout(1200);
  await at('masstransit-concurrent');
}

async function nodeClickWhileAMessageIsInspected(
  page: Page,
  url: string,
  s: { w: number; h: number },
  at: (n: string) => Promise<void>,
) {
  await openTemplate(page, url, s, 'dlx-ttl-wait-queue&delayMs=200');
  await simulateAlwaysFailing(page, 2);
  await page.click('[data-testid=tab-timeline]');
  await page.locator('[data-testid=timeline-lane]').first().click();
  await page.waitForSelector('[data-testid=message-close]');
  await page.click('[data-testid=node-queue][data-name="orders.wait"]');
  await waitFor('the node inspector', async () => (await page.locator('[data-testid=inspector]').count()) === 1);
  assert((await page.inputValue('[data-testid=field-name]')) === 'orders.wait', 'the clicked queue is inspected');
  await at('node-while-message');
  await page.click('[data-testid=back-to-message]');
  await page.waitForSelector('[data-testid=message-close]');
}

export const modelTruthFlow: Flow = {
  name: 'browser-flow: the screen says what the model knows; a node click inspects the node',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      const at = (n: string) => shot(`${s.w}-${n}`);
      await lintReadsOneResult(page, url, s, at);
      await nodeClickWhileAMessageIsInspected(page, url, s, at);
      await at('back-to-message');
      await blankStart(page, url, s);
      await appConfigSaysWhatTheCliSays(page, at);
      await celeryJitterIsARange(page, at);
      await concurrencyIsDrawnAtOnce(page, at);
    }
  },
};
