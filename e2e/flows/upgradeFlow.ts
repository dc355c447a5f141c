import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { designName, openFile, openTemplate, SIZES } from '../lib/steps.js';

/**
 * A 3.13 export: a mirroring policy and classic queue version 1 on the DLQ (both refused on 4.x) over a
 * retry loop; with `quorum`, a quorum work queue that sets no delivery limit (4.x gives it 20: a changed default).
 */
export function legacyExport(opts: { readonly quorum?: boolean } = {}): string {
  const x = (name: string, type = 'direct') => ({
    name,
    vhost: '/',
    type,
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: {},
  });
  const bind = (source: string, destination: string, routing_key: string) => ({
    source,
    vhost: '/',
    destination,
    destination_type: 'queue',
    routing_key,
    arguments: {},
  });
  return JSON.stringify({
    rabbitmq_version: '3.13.7',
    vhosts: [{ name: '/' }],
    exchanges: [x('billing'), x('billing.dlx', 'fanout')],
    queues: [
      {
        name: 'billing.q',
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': 'billing.dlx' },
      },
      { name: 'billing.dlq', vhost: '/', durable: true, auto_delete: false, arguments: { 'x-queue-version': 1 } },
      ...(opts.quorum
        ? [
            {
              name: 'billing.invoices',
              vhost: '/',
              durable: true,
              auto_delete: false,
              arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': 'billing.dlx' },
            },
          ]
        : []),
    ],
    bindings: [
      bind('billing', 'billing.q', 'k'),
      bind('billing.dlx', 'billing.dlq', ''),
      ...(opts.quorum ? [bind('billing', 'billing.invoices', 'invoice')] : []),
    ],
    policies: [
      {
        name: 'billing-ha',
        vhost: '/',
        pattern: '^billing\\.dlq$',
        'apply-to': 'queues',
        priority: 0,
        definition: { 'ha-mode': 'all' },
      },
    ],
  });
}

/** the upgrade badges on the canvas: node id -> tone, with the hover text */
async function badges(page: Page): Promise<{ marks: Record<string, string>; titles: Record<string, string> }> {
  const rows = await page
    .locator('[data-testid=upgrade-badge]')
    .evaluateAll((els) =>
      els.map(
        (e) =>
          [
            e.closest('.react-flow__node')?.getAttribute('data-id') ?? '?',
            e.getAttribute('data-tone') ?? '',
            e.getAttribute('title') ?? '',
          ] as const,
      ),
    );
  return {
    marks: Object.fromEntries(rows.map(([id, tone]) => [id, tone])),
    titles: Object.fromEntries(rows.map(([id, , t]) => [id, t])),
  };
}

const same = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

async function badgesAre(page: Page, what: string, want: Record<string, string>): Promise<void> {
  let seen: Record<string, string> = {};
  await waitFor(`${what}: badges on exactly ${JSON.stringify(want)}`, async () =>
    same((seen = (await badges(page)).marks), want),
  ).catch((e: Error) => {
    throw new Error(`${e.message}; seen ${JSON.stringify(seen)}`);
  });
}

async function openUpgradeView(page: Page): Promise<void> {
  await page.click('[data-testid=tab-lint]');
  await page.click('[data-testid=lint-view-upgrade]');
  await page.waitForSelector('[data-testid=upgrade-panel]');
}

/**
 * The Upgrade view at 1280x800 and 1440x900. The quorum-delivery-limit template (nack + x-delivery-limit)
 * checked from 3.10 to 4.3 names the fate that changes and badges its queues amber on the canvas; 4.x (where
 * a nack still counts) badges nothing; the badges leave with the view. A 3.13 export badges the queue whose
 * declaration 4.3 refuses red (the reason on hover) and the quorum queue whose default changes amber, nothing
 * else; an edit moves them with the design, and another design opened takes them away.
 */
export const upgradeFlow: Flow = {
  name: 'upgrade view lists findings and marks nodes',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await openTemplate(page, url, s, 'quorum-delivery-limit');
      await openUpgradeView(page);
      await waitFor('findings', async () => (await page.locator('[data-testid=upgrade-finding]').count()) > 0);
      const kinds = await page
        .locator('[data-testid=upgrade-finding]')
        .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-rule')}`));
      assert(kinds.includes('behaviour-changed:fate-changed'), `fate change listed (${kinds.join(', ')})`);
      const text = await page.locator('[data-testid=upgrade-finding]').first().innerText();
      assert(/nack no longer counts toward x-delivery-limit/.test(text), `the cause is said: ${text}`);
      assert(
        /fates match/.test(await page.locator('[data-testid=upgrade-migration]').innerText()),
        'the migration keeps the fates',
      );
      // the fate changes in the work queue and in the queue it ends in: both amber, nothing else marked
      await badgesAre(page, '3.10 to 4.3', { 'queue:jobs.q': 'changed', 'queue:jobs.dead': 'changed' });
      assert(/nack no longer counts/.test((await badges(page)).titles['queue:jobs.q'] ?? ''), 'the reason on hover');
      await page.locator('[data-testid=upgrade-finding]').first().click();
      await waitFor(
        'clicking selects the queue on the canvas',
        async () => (await page.locator('.react-flow__node.selected').count()) > 0,
      );
      await shot(`${s.w}-upgrade-4.3`);
      await page.selectOption('[data-testid=upgrade-to]', '4.x');
      await waitFor('4.x: no fate changes', async () =>
        /Nothing refused|Nothing changes/.test(await page.locator('[data-testid=upgrade-verdict]').innerText()),
      );
      await badgesAre(page, '3.10 to 4.x', {});
      await page.selectOption('[data-testid=upgrade-to]', '4.3');
      await badgesAre(page, 'back to 4.3', { 'queue:jobs.q': 'changed', 'queue:jobs.dead': 'changed' });
      await page.click('[data-testid=upgrade-mark-all]');
      await waitFor(
        'Select on canvas selects every named object',
        async () => (await page.locator('.react-flow__node.selected').count()) === 2,
      );
      // the result leaves the screen: so do its badges
      await page.click('[data-testid=lint-view-findings]');
      await badgesAre(page, 'the lint findings shown instead', {});
      await page.click('[data-testid=lint-view-upgrade]');
      await badgesAre(page, 'the Upgrade view again', { 'queue:jobs.q': 'changed', 'queue:jobs.dead': 'changed' });

      // a 3.13 export: refused red, the changed default amber, exactly those
      await openFile(page, { name: 'billing-3.13.json', text: legacyExport({ quorum: true }) });
      await waitFor('the file open', async () => (await designName(page)) === 'billing-3.13');
      await openUpgradeView(page);
      const file = { 'queue:billing.dlq': 'refused', 'queue:billing.invoices': 'changed' };
      await badgesAre(page, 'the 3.13 export to 4.3', file);
      const { titles } = await badges(page);
      assert(
        /billing-ha/.test(titles['queue:billing.dlq'] ?? '') && /broker: /.test(titles['queue:billing.dlq'] ?? ''),
        `the refusal's reason on hover: ${titles['queue:billing.dlq']}`,
      );
      assert(
        /delivery limit/.test(titles['queue:billing.invoices'] ?? ''),
        `the changed default on hover: ${titles['queue:billing.invoices']}`,
      );
      await shot(`${s.w}-upgrade-badges`);
      // an edit: the check is of the new version, its badges follow (the renamed queue carries its mark)
      await page.click('.react-flow__node[data-id="queue:billing.invoices"]');
      await page.click('[data-testid=tab-inspect]');
      await page.fill('[data-testid=field-name]', 'billing.invoices2');
      await page.press('[data-testid=field-name]', 'Enter');
      await openUpgradeView(page);
      await badgesAre(page, 'after a rename', { 'queue:billing.dlq': 'refused', 'queue:billing.invoices2': 'changed' });
      await page.click('[data-testid=cmd-undo]');
      await badgesAre(page, 'after the undo', file);
      // another design opened: the file's badges are gone, the new one's check is its own
      await openFile(page, { name: 'billing-lite.json', text: legacyExport() });
      await waitFor('the other file open', async () => (await designName(page)) === 'billing-lite');
      await openUpgradeView(page);
      await badgesAre(page, 'another design opened', { 'queue:billing.dlq': 'refused' });
    }
  },
};
