import { assert, waitFor, type Flow } from '../lib/harness.js';

/**
 * The Upgrade view at 1440x900: the quorum-delivery-limit template (nack + x-delivery-limit) checked
 * from 3.10 to 4.3 names the fate that changes, marks its queue on the canvas, and the migration
 * says its fates match; switching the target to 4.x (where a nack still counts) clears it.
 */
export const upgradeFlow: Flow = {
  name: 'upgrade view lists findings and marks nodes',
  async run({ page, url, shot }) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${url}/?template=quorum-delivery-limit`);
    await page.waitForSelector('.react-flow__node');
    await page.click('[data-testid=tab-lint]');
    await page.click('[data-testid=lint-view-upgrade]');
    await page.waitForSelector('[data-testid=upgrade-panel]');
    await waitFor('findings', async () => (await page.locator('[data-testid=upgrade-finding]').count()) > 0);
    const kinds = await page.locator('[data-testid=upgrade-finding]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-rule')}`));
    assert(kinds.includes('behaviour-changed:fate-changed'), `fate change listed (${kinds.join(', ')})`);
    const text = await page.locator('[data-testid=upgrade-finding]').first().innerText();
    assert(/nack no longer counts toward x-delivery-limit/.test(text), `the cause is said: ${text}`);
    assert(/fates match/.test(await page.locator('[data-testid=upgrade-migration]').innerText()), 'the migration keeps the fates');
    await page.locator('[data-testid=upgrade-finding]').first().click();
    await waitFor('clicking marks the queue on the canvas', async () => (await page.locator('.react-flow__node.selected').count()) > 0);
    await shot('upgrade-4.3');
    await page.selectOption('[data-testid=upgrade-to]', '4.x');
    await waitFor('4.x: no fate changes', async () => /Nothing refused|Nothing changes/.test(await page.locator('[data-testid=upgrade-verdict]').innerText()));
    // the smaller laptop size: the panel still fits the side column
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.selectOption('[data-testid=upgrade-to]', '4.3');
    await page.click('[data-testid=upgrade-mark-all]');
    await waitFor('Mark all selects every named object', async () => (await page.locator('.react-flow__node.selected').count()) > 0);
    await shot('upgrade-1280');
  },
};
