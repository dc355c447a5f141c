import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';

/** A line each format's output must hold: the export panel must offer exactly these formats. */
const SIGNATURE: Readonly<Record<string, string>> = {
  design: '"format": "retry-studio/design"',
  definitions: '"rabbitmq_version"',
  rabbitmqadmin: 'RABBITMQADMIN_TARGET_VHOST',
  'rabbitmqadmin-v1': 'rabbitmqadmin -V',
  amqplib: 'assertQueue',
  rascal: '"vhosts"',
  consumers: 'handle(',
  operator: 'rabbitmqClusterReference',
  terraform: 'resource "rabbitmq_queue"',
  asyncapi: '"asyncapi": "3.0.0"',
};

const VHOST = 'orders-vh';
/** the formats that read the vhost option (the others have no vhost to name) */
const TAKE_VHOST = ['asyncapi', 'definitions', 'operator', 'rabbitmqadmin', 'rabbitmqadmin-v1', 'rascal', 'terraform'];

const exportText = (page: Page) => page.locator('[data-testid=export-text]').innerText();

async function showFormat(page: Page, id: string): Promise<string> {
  await page.click(`[data-testid=export-format-${id}]`);
  return waitFor(`${id} output`, async () => {
    if (!(await page.locator('[data-testid=export-text]').count())) return undefined;
    const t = await exportText(page);
    return t.includes(SIGNATURE[id]!) ? t : undefined;
  });
}

/** Every export format renders, the vhost and cluster options reach the output, and a bad option shows its error instead. */
export const exportFormatsFlow: Flow = {
  name: 'export: every format, its options, an invalid option',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.click('[data-testid=tab-export]');
    await page.waitForSelector('[data-testid=export-text]');
    const ids = await page
      .locator('[data-testid^=export-format-]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('export-format-', '')));
    assert(
      JSON.stringify([...ids].sort()) === JSON.stringify(Object.keys(SIGNATURE).sort()),
      `the formats offered: ${ids.join(', ')}`,
    );

    // the vhost typed once holds for every format that reads it
    await showFormat(page, 'definitions');
    await page.fill('[data-testid=export-option-vhost]', VHOST);
    const tookVhost: string[] = [];
    for (const id of ids) {
      const text = await showFormat(page, id);
      if (!(await page.locator('[data-testid=export-option-vhost]').count())) continue;
      assert(text.includes(VHOST), `${id} uses the vhost ${VHOST}`);
      tookVhost.push(id);
    }
    assert(
      JSON.stringify(tookVhost.sort()) === JSON.stringify(TAKE_VHOST),
      `the formats with a vhost option: ${tookVhost.join(', ')}`,
    );

    // the operator's RabbitmqCluster reference
    await showFormat(page, 'operator');
    await page.fill('[data-testid=export-option-cluster]', 'prod-rabbit');
    await waitFor('the cluster reference', async () => (await exportText(page)).includes('name: "prod-rabbit"'));
    const operator = await exportText(page);
    assert(
      operator.includes(`vhost: "${VHOST}"`) && !operator.includes('name: "rabbitmq"'),
      'the operator resources use both options',
    );
    await shot('operator');

    // not a Kubernetes name: the error names the option, and there is no output to copy
    await page.fill('[data-testid=export-option-cluster]', 'Prod_Rabbit');
    const error = await waitFor('the option error', async () =>
      (await page.locator('[data-testid=export-option-error]').count())
        ? page.locator('[data-testid=export-option-error]').innerText()
        : undefined,
    );
    assert(
      error.includes('RabbitmqCluster') && error.includes('"Prod_Rabbit"'),
      `the error names the option and its value: ${error}`,
    );
    assert((await page.locator('[data-testid=export-text]').count()) === 0, 'no output under an invalid option');
    assert((await page.locator('[data-testid=export-copy]').count()) === 0, 'nothing to copy');
    await shot('invalid-cluster');

    // formats that do not read the cluster are not held up by it
    await showFormat(page, 'terraform');
    assert(
      (await page.locator('[data-testid=export-option-error]').count()) === 0,
      'terraform ignores the cluster option',
    );
    await page.click('[data-testid=export-format-operator]');
    await page.fill('[data-testid=export-option-cluster]', 'prod-rabbit');
    await showFormat(page, 'operator');
    assert((await page.locator('[data-testid=export-option-error]').count()) === 0, 'a valid name clears the error');
  },
};
