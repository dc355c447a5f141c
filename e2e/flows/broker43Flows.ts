import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow, type FlowCtx } from '../lib/harness.js';
import { throwawayVhost } from '../lib/throwawayVhost.js';
import { B310, B43, setBrokerUrl, traceFinished } from '../lib/steps.js';
import { tearDown, workerAlwaysFails } from './brokerFlows.js';
import { mgmt } from './operateFlows.js';

async function brokerError(page: Page): Promise<string> {
  return waitFor(
    'a broker error',
    async () =>
      (await page.locator('[data-testid=broker-error]').count())
        ? page.locator('[data-testid=broker-error]').innerText()
        : undefined,
    20_000,
  );
}

/**
 * RabbitMQ 4.3 beside 3.10 on one host: the panel finds the 4.3 broker's own management API
 * (15673, not the 3.10 broker's 15672), offers the 4.3 profile, refuses a typed management URL
 * that belongs to the other broker, remembers the settings per broker, and deploys, traces and
 * tears down the quorum delayed retry template on 4.3.
 */
export const broker43Flow: Flow = {
  name: 'probe, deploy and trace on RabbitMQ 4.3 (management API discovered or typed)',
  broker: true,
  expectedHttpErrors: ['400 POST /api/plan', '409 POST /api/teardown'],
  async run(ctx) {
    // a throwaway vhost of its own on the shared 4.3 broker, deleted whatever happens
    const vhost = throwawayVhost('b43');
    const v = encodeURIComponent(vhost);
    await mgmt(B43.mgmt, 'PUT', `/api/vhosts/${v}`, {});
    await mgmt(B43.mgmt, 'PUT', `/api/permissions/${v}/guest`, { configure: '.*', write: '.*', read: '.*' });
    try {
      await probeDeployTrace(ctx, vhost);
    } finally {
      await mgmt(B43.mgmt, 'DELETE', `/api/vhosts/${v}`).catch(() => undefined);
    }
  },
};

/** The flow's steps, in its own vhost. */
async function probeDeployTrace({ page, url, shot }: FlowCtx, vhost: string): Promise<void> {
  await page.goto(`${url}/?template=quorum-delayed-retry&deliveryLimit=3&minDelayMs=200&maxDelayMs=500`);
  await page.waitForSelector('.react-flow__node');
  // the template opens under the profile it is for (4.3); set back to 4.0-4.2, the probe offers 4.3 again
  assert((await page.inputValue('[data-testid=field-profile]')) === '4.3', 'the 4.3 template opens under 4.3');
  await page.selectOption('[data-testid=field-profile]', '4.x');
  // the worker fails every attempt, so the broker's delayed retry shows
  await workerAlwaysFails(page);

  await page.click('[data-testid=tab-broker]');
  await setBrokerUrl(page, B43.amqp);
  const prefix = `e2e43${Date.now().toString(36)}.`;
  await page.fill('[data-testid=deploy-prefix]', prefix);
  await page.fill('[data-testid=deploy-vhost]', vhost);
  assert(
    (await page.locator('[data-testid=broker-management-url]').inputValue()) === '',
    'no management URL typed: the server finds it',
  );

  // probe: 4.3, with its own management API found by itself
  await page.click('[data-testid=broker-probe]');
  await page.waitForSelector('[data-testid=broker-probe-result]', { timeout: 20_000 });
  const version = await page.locator('[data-testid=broker-version]').innerText();
  assert(/RabbitMQ 4\.3\./.test(version), `the 4.3 broker answers: ${version}`);
  const mgmt = await page.locator('[data-testid=broker-management]').innerText();
  assert(
    mgmt.includes('http://127.0.0.1:15673') && mgmt.includes('found by itself'),
    `its own management API, discovered: ${mgmt}`,
  );
  await shot('probed');

  // the profile follows the broker: offered, switched in one click, undoable
  await page.waitForSelector('[data-testid=profile-offer]');
  await page.click('[data-testid=profile-switch]');
  await page.waitForSelector('[data-testid=profile-switched]');
  await page.click('[data-testid=profile-undo]');
  await page.waitForSelector('[data-testid=profile-offer]');
  await page.click('[data-testid=profile-switch]');
  await page.waitForSelector('[data-testid=profile-switched]');

  // a typed management URL of the other broker is refused, naming both
  await page.fill('[data-testid=broker-management-url]', 'http://127.0.0.1:15672');
  await page.click('[data-testid=broker-plan]');
  const refused = await brokerError(page);
  assert(
    /belongs to a different broker/.test(refused) &&
      /3\.10\./.test(refused) &&
      /4\.3\./.test(refused) &&
      /managementUrl/.test(refused),
    `refused, naming both brokers: ${refused}`,
  );
  await shot('other-broker-refused');

  // typed right, the plan works
  await page.fill('[data-testid=broker-management-url]', 'http://127.0.0.1:15673');
  await page.click('[data-testid=broker-plan]');
  await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
  assert(
    parseInt(await page.locator('[data-testid=plan-count-create]').innerText(), 10) > 0,
    'the plan creates objects',
  );
  assert(
    (await page.locator('[data-testid=plan-count-unsupported]').innerText()).startsWith('0 '),
    'nothing unsupported on 4.3',
  );
  await page.click('[data-testid=broker-apply]');
  await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });
  // the table now tells what was applied, not what a plan would say of the broker now
  assert(
    (await page.locator('[data-testid=plan-applied-note]').count()) === 1,
    'the plan after Apply is marked as the plan applied',
  );
  await shot('deployed');

  // the settings come back with the broker URL
  await setBrokerUrl(page, B310.amqp);
  await setBrokerUrl(page, B43.amqp);
  assert(
    (await page.locator('[data-testid=broker-management-url]').inputValue()) === 'http://127.0.0.1:15673',
    'the management URL is remembered for the 4.3 broker',
  );
  assert((await page.locator('[data-testid=deploy-prefix]').inputValue()) === prefix, 'so is the prefix');

  // live trace on 4.3: the quorum queue itself holds each return before redelivering it
  await page.click('[data-testid=tab-trace]');
  await page.fill('[data-testid=trace-count]', '1');
  await page.click('[data-testid=trace-start]');
  await traceFinished(page);
  await page.waitForSelector('[data-testid=trace-comparison]', { timeout: 20_000 });
  await page.click('[data-testid=tab-timeline]');
  await waitFor(
    'the live lane in the timeline',
    async () => (await page.locator('[data-testid=timeline-lane][data-source=live]').count()) === 1,
  );
  await shot('traced');
  // tear down on 4.3 (the dead-lettered message is in the dead queue: confirm its loss)
  await page.click('[data-testid=tab-broker]');
  await tearDown(page);
  assert(
    /Deleted [1-9]/.test(await page.locator('[data-testid=teardown-result]').innerText()),
    'teardown deleted the objects on 4.3',
  );
}
