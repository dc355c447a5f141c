import type { Page } from 'playwright-core';
import { assert, openFirstWorker, waitFor, type Flow } from '../lib/harness.js';

/** Tear down with the confirmation; when queues hold messages the panel asks to delete them, and we say yes. */
export async function tearDown(page: Page): Promise<void> {
  await page.click('[data-testid=broker-teardown]');
  const which = await waitFor('a teardown confirmation', async () => {
    if (await page.locator('[data-testid=teardown-force]').count()) return 'force';
    if (await page.locator('[data-testid=teardown-confirm-yes]').count()) return 'yes';
    return undefined;
  });
  await page.click(which === 'force' ? '[data-testid=teardown-force]' : '[data-testid=teardown-confirm-yes]');
  let forced = which === 'force';
  await waitFor(
    'teardown done',
    async () => {
      // the server may still refuse (the management counts lag): then confirm the loss, once
      if (!forced && (await page.locator('[data-testid=teardown-force]').count())) {
        forced = true;
        await page.click('[data-testid=teardown-force]');
      }
      return (await page.locator('[data-testid=teardown-result]').count()) > 0;
    },
    30_000,
  );
}

/** Plan and apply the design on the canvas under a fresh prefix (Broker tab). */
async function deployUnderFreshPrefix(page: Page): Promise<void> {
  await page.click('[data-testid=tab-broker]');
  await page.fill('[data-testid=deploy-prefix]', `e2e${Date.now().toString(36)}.`);
  await page.click('[data-testid=broker-plan]');
  await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
  await page.click('[data-testid=broker-apply]');
  await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });
}

/**
 * Deploy and live trace against the real server and the real broker at 127.0.0.1:5672.
 * A fresh name prefix per run keeps it apart from anything else on the broker; the flow
 * tears down what it deployed.
 */
export const deployAndTraceFlow: Flow = {
  name: 'deploy and live trace on the real broker',
  broker: true,
  expectedHttpErrors: ['409 POST /api/teardown'],
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.click('[data-testid=tab-broker]');
    const prefix = `e2e${Date.now().toString(36)}.`;
    await page.fill('[data-testid=deploy-prefix]', prefix);
    const shown = await page.locator('[data-testid=broker-url]').inputValue();
    assert(shown.includes('***') && !shown.includes('guest@'), `password masked: ${shown}`);

    await page.click('[data-testid=broker-probe]');
    await waitFor(
      'probe result',
      async () => (await page.locator('[data-testid=broker-probe-result]').innerText()).includes('RabbitMQ'),
      20_000,
    );

    await page.click('[data-testid=broker-plan]');
    await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
    const create = parseInt(await page.locator('[data-testid=plan-count-create]').innerText(), 10);
    assert(create > 0, `the plan creates objects (${create})`);
    await shot('plan');

    await page.click('[data-testid=broker-apply]');
    await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });
    await page.click('[data-testid=broker-plan]');
    await waitFor(
      're-plan: nothing to create',
      async () => (await page.locator('[data-testid=plan-count-create]').innerText()).startsWith('0 '),
      20_000,
    );
    const unchanged = parseInt(await page.locator('[data-testid=plan-count-unchanged]').innerText(), 10);
    assert(unchanged >= create, `everything unchanged after apply (${unchanged})`);
    await shot('deployed');

    // live trace: real hops next to the prediction
    await page.click('[data-testid=tab-trace]');
    await page.fill('[data-testid=trace-count]', '2');
    await page.click('[data-testid=trace-start]');
    await waitFor(
      'the trace to finish',
      async () => {
        const err = await page.locator('[data-testid=trace-error]').count();
        if (err) throw new Error(await page.locator('[data-testid=trace-error]').innerText());
        return (await page.locator('[data-testid=trace-status]').innerText()).startsWith('finished');
      },
      90_000,
    );
    await page.click('[data-testid=tab-timeline]');
    await waitFor(
      'live lanes in the timeline',
      async () => (await page.locator('[data-testid=timeline-lane][data-source=live]').count()) === 2,
    );
    assert(
      (await page.locator('[data-testid=timeline-lane][data-source=sim]').count()) >= 2,
      'predicted lanes beside them',
    );
    // one truth: each live lane states its outcome in the core's words, the same as its predicted twin
    let said: (string | null | undefined)[][] = [];
    await waitFor(
      'each live lane stating the outcome its predicted twin states',
      async () => {
        said = await page.evaluate(() =>
          Array.from(document.querySelectorAll('[data-testid=timeline-lane][data-source=live]')).map((live) => {
            const twin = document.querySelector(
              `[data-testid=timeline-lane][data-source=sim][data-msg="${live.getAttribute('data-msg')}"]`,
            );
            return [
              live.querySelector('[data-testid=lane-outcome]')?.textContent,
              twin?.querySelector('[data-testid=lane-outcome]')?.textContent,
            ];
          }),
        );
        return said.length === 2 && said.every(([live, predicted]) => !!live && live === predicted);
      },
      20_000,
    ).catch(() => {
      throw new Error(`live / predicted outcomes: ${JSON.stringify(said)}`);
    });
    await waitFor(
      'live tokens were drawn on the canvas',
      async () => ((await page.evaluate('window.__overlay ? window.__overlay.liveTokensDrawn : 0')) as number) > 0,
    );
    await page.click('[data-testid=tab-trace]');
    await page.waitForSelector('[data-testid=trace-comparison]', { timeout: 20_000 });
    await shot('traced');

    // tear down with the confirmation (and the second one if queues hold messages)
    await page.click('[data-testid=tab-broker]');
    await tearDown(page);
    const res = await page.locator('[data-testid=teardown-result]').innerText();
    assert(/Deleted [1-9]/.test(res), `teardown deleted objects: ${res}`);
  },
};

/**
 * The policy-first variant (`settings=policy`): the plan lists the policies to create; once
 * deployed, a new delay plans as a policy `update` applied in place. Torn down at the end.
 */
export const policyPlanFlow: Flow = {
  name: 'plan creates and updates policies in place',
  broker: true,
  expectedHttpErrors: ['409 POST /api/teardown'],
  async run({ page, url, shot }) {
    const prefix = `e2e${Date.now().toString(36)}.`;
    const open = async (delayMs: number) => {
      await page.goto(`${url}/?template=dlx-ttl-wait-queue&settings=policy&delayMs=${delayMs}`);
      await page.waitForSelector('.react-flow__node');
      await page.click('[data-testid=tab-broker]');
      await page.fill('[data-testid=deploy-prefix]', prefix);
      await page.click('[data-testid=broker-plan]');
      await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
    };
    await open(1000);
    const firstDesign = await page.locator('[data-testid=design-name]').inputValue();
    const created = page.locator('[data-testid=plan-item][data-kind=policy][data-status=create]');
    assert((await created.count()) === 2, "the plan creates the design's two policies");
    assert((await created.filter({ hasText: 'message-ttl 1000' }).count()) === 1, 'a policy row says what it sets');
    assert(
      (await page.locator('[data-testid=plan-queue-policy-settings]').count()) > 0,
      'a queue row names the settings its policy gives it',
    );
    await shot('policies-planned');
    await page.click('[data-testid=broker-apply]');
    await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });

    await open(2000);
    await waitFor(
      'the policy plans as an update',
      async () => (await page.locator('[data-testid=plan-count-update]').innerText()).startsWith('1 '),
      20_000,
    );
    const updated = page.locator('[data-testid=plan-item][data-kind=policy][data-status=update]');
    assert(
      (await updated.innerText()).includes('message-ttl: 1000 -> 2000'),
      `the change is named: ${await updated.innerText()}`,
    );
    assert(
      (await updated.locator('[data-testid=plan-policy-in-place]').getAttribute('data-in-place')) === 'true',
      'applied in place',
    );
    assert(
      (await page.locator('[data-testid=plan-count-conflict]').innerText()).startsWith('0 '),
      'no queue conflicts: the TTL lives in the policy',
    );
    await shot('policy-update');
    // the tuned template is a design of its own: the deployment belongs to the first one, torn down from there
    await page.click('[data-testid=designs-toggle]');
    await page.waitForSelector('[data-testid=designs-menu]');
    await page
      .locator('[data-testid=design-row]')
      .filter({ hasText: firstDesign })
      .locator('[data-testid=design-open]')
      .click();
    await waitFor(
      'the deployed design is open again',
      async () => (await page.locator('[data-testid=design-name]').inputValue()) === firstDesign,
    );
    await page.click('[data-testid=tab-broker]');
    await page.fill('[data-testid=deploy-prefix]', prefix);
    await tearDown(page);
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
    assert(
      (await page.locator('[data-testid=plan-item][data-status=unsupported]').first().innerText()).includes('delayed'),
      'the plugin is named',
    );
    await shot('unsupported');
    await page.click('[data-testid=portable-apply]');
    // the offer stays, listing what changed, until dismissed
    await waitFor(
      'the portable offer stays after use',
      async () => (await page.locator('[data-testid=portable-offer] li').count()) > 0,
      5000,
    );
    await page.click('[data-testid=portable-dismiss]');
    assert((await page.locator('[data-testid=portable-offer]').count()) === 0, 'dismissed');
    await page.click('[data-testid=broker-plan]');
    await waitFor(
      'portable design plans cleanly',
      async () => (await page.locator('[data-testid=plan-count-unsupported]').innerText()).startsWith('0 '),
      20_000,
    );
    await shot('portable');
  },
};

/** Gives the design's first worker its own failure model `always`, through the inspector's JSON editor. */
export async function workerAlwaysFails(page: Page): Promise<void> {
  await openFirstWorker(page);
  const beh = JSON.parse(await page.locator('[data-testid=field-behaviour]').inputValue()) as Record<string, unknown>;
  await page.fill('[data-testid=field-behaviour]', JSON.stringify({ ...beh, failure: { kind: 'always' } }, null, 2));
}

/**
 * The broker and the design disagree (the deployed queue keeps its dead-letter exchange, the
 * design has dropped it): the live trace parts from the prediction and the UI says where.
 */
export const divergenceFlow: Flow = {
  name: 'live trace points out the first divergence',
  broker: true,
  expectedHttpErrors: ['409 POST /api/teardown'],
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue&delayMs=200`);
    await page.waitForSelector('.react-flow__node');
    // the worker fails every attempt (a consumer's own failure model, which the trace workers honour)
    await workerAlwaysFails(page);
    await deployUnderFreshPrefix(page);
    // now the design says: no dead-letter exchange on the work queue (the broker keeps it)
    await page.click('[data-testid=node-queue][data-name="orders.q"]');
    await page.click('[data-testid=tab-inspect]');
    await page.fill('[data-testid=field-dlrk]', '');
    await page.selectOption('[data-testid=field-dlx]', '\u0000');
    await page.click('[data-testid=tab-trace]');
    await page.fill('[data-testid=trace-count]', '1');
    await page.click('[data-testid=trace-start]');
    await waitFor(
      'a divergence',
      async () => {
        if (await page.locator('[data-testid=trace-error]').count())
          throw new Error(await page.locator('[data-testid=trace-error]').innerText());
        return (await page.locator('[data-testid=trace-divergence]').count()) > 0;
      },
      90_000,
    );
    const text = await page.locator('[data-testid=trace-divergence]').innerText();
    assert(/predicted/.test(text) && /actual/.test(text), `predicted and actual shown: ${text}`);
    const where = await page.locator('[data-testid=trace-divergence-where]').innerText();
    assert(/orders\.q/.test(where), `the divergence names its hop: ${where}`);
    await page.click('[data-testid=trace-show-divergence]');
    await waitFor(
      'the message is inspected',
      async () => (await page.locator('[data-testid=message-detail]').count()) > 0,
    );
    await shot('divergence');
    // tear down (queues may hold the parked message: confirm twice)
    await page.click('[data-testid=tab-broker]');
    await tearDown(page);
  },
};

/**
 * The trace form's failure model: it follows the simulation bar by default, and one of its own
 * (failFirst 1 here) reaches the live workers and the prediction alike, so they match.
 */
export const traceFailureModelFlow: Flow = {
  name: 'live trace uses the failure model of its form',
  broker: true,
  expectedHttpErrors: ['409 POST /api/teardown'],
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue&delayMs=200`);
    await page.waitForSelector('.react-flow__node');
    await deployUnderFreshPrefix(page);
    await page.click('[data-testid=tab-trace]');
    const followed = await page.locator('[data-testid=trace-failure] option:checked').innerText();
    assert(/simulation bar \(fails first 2\)/.test(followed), `the form follows the simulation bar: ${followed}`);
    await page.selectOption('[data-testid=trace-failure]', 'failFirst');
    await page.fill('[data-testid=trace-failure-n]', '1');
    await page.fill('[data-testid=trace-count]', '2');
    await page.click('[data-testid=trace-start]');
    await waitFor(
      'the trace to finish and match its prediction',
      async () => {
        if (await page.locator('[data-testid=trace-error]').count())
          throw new Error(await page.locator('[data-testid=trace-error]').innerText());
        if (await page.locator('[data-testid=trace-divergence]').count())
          throw new Error(await page.locator('[data-testid=trace-divergence]').innerText());
        return (
          (await page.locator('[data-testid=trace-status]').innerText()).startsWith('finished') &&
          (await page.locator('[data-testid=trace-match]').count()) > 0
        );
      },
      90_000,
    );
    const cmp = await page.locator('[data-testid=trace-comparison]').innerText();
    assert(/2 of 2/.test(cmp), `both messages match: ${cmp}`);
    await shot('trace-failure-model');
    await page.click('[data-testid=tab-broker]');
    await tearDown(page);
  },
};
