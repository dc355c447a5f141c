import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { tearDown } from './brokerFlows.js';

/** node 2 of the three-node 4.3 test cluster (scripts/brokers.sh up cluster) */
const NODE_2 = 'amqp://guest:guest@127.0.0.1:5675/';
const REPO = fileURLToPath(new URL('../../', import.meta.url));

async function setBrokerUrl(page: Page, value: string): Promise<void> {
  await page.click('[data-testid=broker-url]');
  await page.fill('[data-testid=broker-url]', value);
  await page.locator('[data-testid=broker-url]').blur();
}

/**
 * A cluster deploy: the probe through node 2 shows the node view (three nodes running, one
 * version) and turns on the linter's cluster rule (the classic dead-letter queue), the plan shows each quorum queue with 3 expected replicas, the deploy goes through
 * node 2, and the plan after it shows each queue's leader. Then "what if node 2 goes down" in the
 * simulation bar: the probed nodes offered, its queues taken from the plan, greyed on the canvas.
 */
export const clusterFlow: Flow = {
  name: 'cluster: probe the node view, plan replicas, deploy through node 2',
  broker: true,
  expectedHttpErrors: ['409 POST /api/teardown'],
  async run({ page, url, shot }) {
    execFileSync('bash', ['scripts/brokers.sh', 'up', 'cluster'], { cwd: REPO, timeout: 240_000 });
    await page.goto(`${url}/?template=quorum-delayed-retry&deliveryLimit=2&minDelayMs=200&maxDelayMs=500`);
    await page.waitForSelector('.react-flow__node');
    await page.click('[data-testid=tab-broker]');
    await setBrokerUrl(page, NODE_2);
    await page.fill('[data-testid=deploy-prefix]', `e2ecl${Date.now().toString(36)}.`);

    // a cluster just started lists its nodes before their versions are reported: probed again, as a user would
    let nodes: string[] = [];
    await waitFor(
      'the nodes and their versions',
      async () => {
        await page.click('[data-testid=broker-probe]');
        await page.waitForSelector('[data-testid=cluster-nodes]', { timeout: 20_000 });
        nodes = await page.locator('[data-testid=cluster-node]').allInnerTexts();
        if (nodes.length === 3 && !nodes.some((n) => n.includes('not reported yet'))) return true;
        await page.waitForTimeout(1000);
        return false;
      },
      30_000,
    ).catch(() => undefined);
    assert(nodes.length === 3, `three nodes: ${nodes.join(' | ')}`);
    assert((await page.locator('[data-testid=cluster-node][data-running=true]').count()) === 3, 'all three running');
    assert(
      nodes.every((n) => /rabbit-c[123]@localhost 4\.3\./.test(n)),
      `names and versions: ${nodes.join(' | ')}`,
    );
    assert((await page.locator('[data-testid=cluster-problem]').count()) === 0, 'no cluster problem');
    await shot('node-view');

    // probed, the linter knows the cluster: the classic dead-letter queue is flagged
    await page.click('[data-testid=tab-lint]');
    const found = await waitFor('the cluster lint finding', async () => {
      const f = page.locator('[data-testid=lint-finding][data-rule=classic-queue-in-cluster]');
      return (await f.count()) ? f.first().innerText() : undefined;
    });
    assert(/jobs\.dead is a classic dead-letter queue on a 3-node cluster/.test(found), `cluster lint: ${found}`);
    await shot('cluster-lint');
    await page.click('[data-testid=tab-broker]');

    await page.click('[data-testid=broker-plan]');
    await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
    const expected = await page.locator('[data-testid=plan-placement]').allInnerTexts();
    assert(
      expected.some((p) =>
        /^quorum, 3 replicas \(expected\), on rabbit-c1@localhost, rabbit-c2@localhost, rabbit-c3@localhost/.test(p),
      ),
      `quorum queues expect 3 replicas: ${expected.join(' | ')}`,
    );
    await shot('plan-replicas');

    await page.click('[data-testid=broker-apply]');
    await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });
    await page.click('[data-testid=broker-plan]');
    await waitFor('the plan after the deploy to show leaders', async () => {
      const rows = await page.locator('[data-testid=plan-placement]').allInnerTexts();
      return rows.some((p) => /^quorum, 3 replicas, leader rabbit-c2@localhost/.test(p)) ? rows : undefined;
    });
    await shot('deployed-leaders');

    // what if node 2 goes down: the probed nodes are offered, the plan says which queues it holds
    // (it leads jobs.q and holds the classic jobs.dead), and the simulation greys them while it is down
    await page.click('[data-testid=sim-node-loss]');
    const offered = await page.locator('[data-testid=sim-node-loss-node] option').allInnerTexts();
    assert(
      offered.length === 3 && offered.every((n) => /^rabbit-c[123]@localhost$/.test(n)),
      `the probed nodes offered: ${offered.join(' | ')}`,
    );
    await page.selectOption('[data-testid=sim-node-loss-node]', 'rabbit-c2@localhost');
    await page.fill('[data-testid=sim-node-loss-at]', '0');
    await page.fill('[data-testid=sim-node-loss-leader]', '20');
    await page.fill('[data-testid=sim-node-loss-for]', '60');
    const count = await page.locator('[data-testid=sim-node-loss-count]').innerText();
    assert(count === '2 queues', `queues on rabbit-c2 from the plan: ${count}`);
    await page.click('[data-testid=sim-run]');
    await page.waitForSelector('[data-testid=node-queue][data-unavailable=true]', { timeout: 10_000 });
    const greyed = await page
      .locator('[data-testid=node-queue][data-unavailable=true]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-name')).sort());
    assert(
      JSON.stringify(greyed) === JSON.stringify(['jobs.dead', 'jobs.q']),
      `greyed while rabbit-c2 is down: ${greyed.join(', ')}`,
    );
    await shot('node-down-simulated');
    await page.click('[data-testid=sim-node-loss]');
    await tearDown(page);
  },
};
