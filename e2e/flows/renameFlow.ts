import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';

/** The design's own budget row (attempts, where it ends) with the design failing always. */
async function budgetOfDesign(page: Page): Promise<{ attempts: string; ends: string }> {
  await page.click('[data-testid=tab-budget]');
  await page.click('[data-testid=budget-compute]');
  await waitFor('budget rows', async () => (await page.locator('[data-testid=budget-row]').count()) >= 1, 30_000);
  const cells = await page.locator('[data-testid=budget-row]').first().locator('td').allInnerTexts();
  return { attempts: cells[1] ?? '', ends: cells[4] ?? '' };
}
const queueNamed = (page: Page, name: string) => page.locator(`[data-testid=node-queue][data-name="${name}"]`);

export const renameFlow: Flow = {
  name: 'renaming a queue keeps the template behaviour',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('[data-testid=node-queue]');
    await page.selectOption('[data-testid=sim-failure]', 'always');
    const before = await budgetOfDesign(page);
    assert(
      before.attempts === '4' && before.ends.includes('orders.parking'),
      `the template: 4 attempts, then parked (${JSON.stringify(before)})`,
    );

    // a taken name is refused with the reason, and nothing changes
    await queueNamed(page, 'orders.q').click();
    await page.fill('[data-testid=field-name]', 'orders.wait');
    await page.press('[data-testid=field-name]', 'Enter');
    await waitFor('refusal shown', async () =>
      (await page.locator('[data-testid=field-error]').allInnerTexts()).some((t) => t.includes('orders.wait')),
    );
    assert((await queueNamed(page, 'orders.q').count()) === 1, 'the refused rename changed nothing');

    await page.fill('[data-testid=field-name]', 'orders.work');
    await page.press('[data-testid=field-name]', 'Enter');
    await waitFor('renamed on the canvas', async () => (await queueNamed(page, 'orders.work').count()) === 1);
    assert((await queueNamed(page, 'orders.q').count()) === 0, 'the old name is gone');
    await shot('renamed');

    // the counter, the DLRK and the binding key followed: the same behaviour under the new name
    const after = await budgetOfDesign(page);
    assert(
      after.attempts === '4' && after.ends.includes('orders.parking'),
      `renamed: still 4 attempts, then parked (${JSON.stringify(after)})`,
    );
    await page.click('[data-testid=tab-export]');
    await page.waitForSelector('[data-testid=export-text]');
    const json = await page.locator('[data-testid=export-text]').innerText();
    assert(!json.includes('"orders.q"'), 'no reference to the old name is left in the design');
    assert(json.includes('"queue": "orders.work"'), 'the counter names the new queue');
    await page.click('[data-testid=tab-lint]');
    const rules = await page
      .locator('[data-testid=lint-finding]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
    assert(!rules.includes('retry-never-ends'), `no never-ending retry after the rename (${rules.join(', ')})`);

    // one rename, one undo step
    await page.click('[data-testid=canvas] .react-flow__pane');
    await page.keyboard.press('Control+z');
    await waitFor('undo brings the old name back', async () => (await queueNamed(page, 'orders.q').count()) === 1);
    await page.keyboard.press('Control+Shift+z');
    await waitFor('redo renames again', async () => (await queueNamed(page, 'orders.work').count()) === 1);
  },
};
