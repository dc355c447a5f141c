import { assert, waitFor, type Flow } from '../lib/harness.js';

/**
 * Deploy and live trace against the real server and the real broker at 127.0.0.1:5672.
 * A fresh name prefix per run keeps it apart from anything else on the broker; the flow
 * tears down what it deployed.
 */
export const deployAndTraceFlow: Flow = {
  name: 'deploy and live trace on the real broker',
  broker: true,
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.click('[data-testid=tab-broker]');
    const prefix = `e2e${Date.now().toString(36)}.`;
    await page.fill('[data-testid=deploy-prefix]', prefix);
    const shown = await page.locator('[data-testid=broker-url]').inputValue();
    assert(shown.includes('***') && !shown.includes('guest@'), `password masked: ${shown}`);

    await page.click('[data-testid=broker-probe]');
    await waitFor('probe result', async () => (await page.locator('[data-testid=broker-probe-result]').innerText()).includes('RabbitMQ'), 20_000);

    await page.click('[data-testid=broker-plan]');
    await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
    const create = parseInt(await page.locator('[data-testid=plan-count-create]').innerText(), 10);
    assert(create > 0, `the plan creates objects (${create})`);
    await shot('plan');

    await page.click('[data-testid=broker-apply]');
    await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });
    await page.click('[data-testid=broker-plan]');
    await waitFor('re-plan: nothing to create', async () => (await page.locator('[data-testid=plan-count-create]').innerText()).startsWith('0 '), 20_000);
    const unchanged = parseInt(await page.locator('[data-testid=plan-count-unchanged]').innerText(), 10);
    assert(unchanged >= create, `everything unchanged after apply (${unchanged})`);
    await shot('deployed');

    // live trace: real hops next to the prediction
    await page.click('[data-testid=tab-trace]');
    await page.fill('[data-testid=trace-count]', '2');
    await page.click('[data-testid=trace-start]');
    let sawLiveTokens = false;
    await waitFor(
      'the trace to finish',
      async () => {
        const n = await page.evaluate('window.__overlay ? window.__overlay.drawnTokens : 0');
        if ((n as number) > 0) sawLiveTokens = true;
        const err = await page.locator('[data-testid=trace-error]').count();
        if (err) throw new Error(await page.locator('[data-testid=trace-error]').innerText());
        return (await page.locator('[data-testid=trace-status]').innerText()).startsWith('finished');
      },
      90_000,
    );
    await page.click('[data-testid=tab-timeline]');
    await waitFor('live lanes in the timeline', async () => (await page.locator('[data-testid=timeline-lane][data-source=live]').count()) === 2);
    assert((await page.locator('[data-testid=timeline-lane][data-source=sim]').count()) >= 2, 'predicted lanes beside them');
    assert(sawLiveTokens, 'live tokens were drawn on the canvas');
    await page.click('[data-testid=tab-trace]');
    await page.waitForSelector('[data-testid=trace-comparison]', { timeout: 20_000 });
    await shot('traced');

    // tear down with the confirmation (and the second one if queues hold messages)
    await page.click('[data-testid=tab-broker]');
    await page.click('[data-testid=broker-teardown]');
    await page.click('[data-testid=teardown-confirm-yes]');
    await waitFor(
      'teardown done',
      async () => {
        if (await page.locator('[data-testid=teardown-force]').count()) await page.click('[data-testid=teardown-force]');
        return (await page.locator('[data-testid=teardown-result]').count()) > 0;
      },
      30_000,
    );
    const res = await page.locator('[data-testid=teardown-result]').innerText();
    assert(/Deleted [1-9]/.test(res), `teardown deleted objects: ${res}`);
  },
};

/** A broker without the delayed-message plugin: the plan says unsupported and offers the portable compile. */
export const unsupportedPlanFlow: Flow = {
  name: 'plan shows unsupported objects and the portable compile',
  broker: true,
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=delayed-exchange`);
    await page.waitForSelector('.react-flow__node');
    await page.click('[data-testid=tab-broker]');
    await page.fill('[data-testid=deploy-prefix]', `e2e${Date.now().toString(36)}.`);
    await page.click('[data-testid=broker-probe]');
    await page.waitForSelector('[data-testid=broker-probe-result]', { timeout: 20_000 });
    const probe = await page.locator('[data-testid=broker-probe-result]').innerText();
    if (/x-delayed-message: yes/.test(probe)) return; // this broker has the plugin: nothing unsupported to show
    await page.click('[data-testid=broker-plan]');
    await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
    const unsupported = parseInt(await page.locator('[data-testid=plan-count-unsupported]').innerText(), 10);
    assert(unsupported > 0, 'the delayed exchange is unsupported here');
    assert((await page.locator('[data-testid=plan-item][data-status=unsupported]').first().innerText()).includes('delayed'), 'the plugin is named');
    await shot('unsupported');
    await page.click('[data-testid=portable-apply]');
    await page.click('[data-testid=broker-plan]');
    await waitFor('portable design plans cleanly', async () => (await page.locator('[data-testid=plan-count-unsupported]').innerText()).startsWith('0 '), 20_000);
    await shot('portable');
  },
};
