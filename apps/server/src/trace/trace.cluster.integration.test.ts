/**
 * A live trace of 1,000 messages through a quorum retry topology on the three-node cluster,
 * connected to node 1, while node 2 (the leader of every queue: they are declared through it)
 * is stopped and started again. The trace keeps going, and published = acked + parked: nothing
 * lost, nothing left in flight. Duplicates are allowed only as at-least-once redeliveries (a
 * message processed again after a redelivery) and are printed with the counts and the failover
 * pause (the longest gap between two events). The trace observes the node loss itself, and its
 * prediction is run again with it: every message matches (fates, routes, x-death, per-message
 * order; not times), at-least-once duplicates flagged apart. With at-most-once dead-lettering, a
 * dead letter the broker dropped in the leader move is counted dropped with a notice, exactly when
 * the dead-letter queue's own count is short. With the dead-letter queue left classic (on node 2),
 * the trace reports it unavailable, waits for it, and says how many dead letters the broker dropped
 * while it was down (RabbitMQ dead-letters at most once). Node 2 is always started again.
 */
import amqp from 'amqplib';
import { describe, expect, it } from 'vitest';
import { type Design } from '@retry-studio/topology-core/model';
import { type SimEvent } from '@retry-studio/topology-core/sim';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { bindQ, design, readSse, uniquePrefix } from '../http/testing.js';
import { simEvents, useLiveServer } from '../testing/liveServer.js';
import type { Comparison } from './prediction.js';
import { TEST_CLUSTER } from '../testing/testBrokers.js';
import { clusterNodeApp, ensureTestCluster } from '../testing/testCluster.js';
import { AT_LEAST_ONCE_DEAD_LETTERING } from '../testing/queueFixtures.js';

const [N1, N2] = TEST_CLUSTER.nodes;
const MESSAGES = 1000;
const startNode2 = () => clusterNodeApp(N2, 'start_app');
const live = useLiveServer({ broker: N1, before: ensureTestCluster, after: startNode2, afterTimeoutMs: 180_000 });
const mgmt1 = new ManagementClient(parseAmqpUrl(N1.amqpUrl), { baseUrl: N1.managementUrl });

/**
 * quorum-delayed-retry (RabbitMQ 4.3: a rejected message waits 50..100 ms in the quorum queue, up to
 * x-delivery-limit) with its dead-letter queue quorum too (or left classic); every `poisonEvery`-th
 * message is poison: returned twice, then dead-lettered and parked. (quorum-delivery-limit's nack
 * no longer counts on 4.3.)
 */
/**
 * The quorum delayed-retry template on the cluster. `lossless` makes its work queue dead-letter
 * at least once (x-dead-letter-strategy at-least-once with x-overflow reject-publish): RabbitMQ's
 * default dead-lettering is at most once, and a dead letter in flight while the leader moves can
 * be dropped (seen here: 49 of 50 parked messages arrived in 2 of 3 runs).
 */
function quorumRetryDesign(
  name: string,
  deadQueue: 'quorum' | 'classic' = 'quorum',
  poisonEvery = 20,
  lossless = false,
): Design {
  const built = buildTemplate('quorum-delayed-retry', { deliveryLimit: 2, minDelayMs: 50, maxDelayMs: 100 });
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  const d = built.template.design;
  return {
    ...d,
    name,
    topology: {
      ...d.topology,
      queues: d.topology.queues
        .map((q) =>
          q.arguments?.['x-queue-type'] === 'quorum' || deadQueue === 'classic'
            ? q
            : { ...q, arguments: { ...q.arguments, 'x-queue-type': 'quorum' } },
        )
        .map((q) =>
          lossless && d.consumers.some((c) => c.queue === q.name)
            ? { ...q, arguments: { ...q.arguments, ...AT_LEAST_ONCE_DEAD_LETTERING } }
            : q,
        ),
    },
    consumers: d.consumers.map((c) =>
      c.behaviour.kind === 'worker'
        ? { ...c, behaviour: { ...c.behaviour, failure: { kind: 'poison' as const, every: poisonEvery } } }
        : c,
    ),
  };
}

/** the longest quiet time between two consecutive message events (within [from, to] of trace time), and when it started */
function longestGap(events: readonly SimEvent[], from = 0, to = Infinity): { ms: number; at: number } {
  const ts = events
    .filter((e) => e.kind !== 'depth')
    .map((e) => e.t)
    .filter((t) => t >= from && t <= to)
    .sort((a, b) => a - b);
  let best = { ms: 0, at: 0 };
  for (let i = 1; i < ts.length; i++)
    if (ts[i]! - ts[i - 1]! > best.ms) best = { ms: ts[i]! - ts[i - 1]!, at: ts[i - 1]! };
  return best;
}

/** Deploys `d` through node 2 (so node 2 holds its queues), torn down after the file. */
async function deployThroughNode2(d: Design, prefix: string): Promise<void> {
  const dep = await live.srv.post('/api/deploy', { design: d, prefix, broker: N2.amqpUrl });
  expect(dep.status, JSON.stringify(dep.body)).toBe(200);
  live.onCleanup(() => live.srv.post('/api/teardown', { designName: d.name, prefix, force: true, broker: N2.amqpUrl }));
}

/**
 * Traces `body` on node 1 (reading the stream live), stops node 2 once `stopWhen` holds for the
 * trace's figures, starts it again 3 s later, and returns the final summary and the notices.
 */
async function traceThroughNode2Stop(
  body: Record<string, unknown>,
  stopWhen: (s: { published: number; confirmed: number }) => boolean,
) {
  const t = await live.srv.post('/api/trace', body);
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  const stream = readSse(live.srv.base + t.body.events, { timeoutMs: 200_000 });
  while (!stopWhen((await live.srv.get(`/api/trace/${t.body.id}`)).body)) await new Promise((r) => setTimeout(r, 50));
  await clusterNodeApp(N2, 'stop_app');
  // the trace samples depths every second: it sees the queue unavailable, not deleted
  await new Promise((r) => setTimeout(r, 3000));
  await startNode2();
  const summary = await live.waitDone(t.body.id, 150_000);
  const { frames } = await stream;
  const notices = frames.filter((f) => f.event === 'notice').map((f) => f.data as { code: string; message: string });
  // copies a quorum source lost before they reached its dead-letter exchange (at-most-once dead-lettering in the leader move), named dropped
  const vanished = simEvents(frames).filter((e) => e.kind === 'dropped' && e.why === 'vanished');
  return {
    summary,
    notices,
    vanished,
    said: notices
      .filter((n) => n.code !== 'trace-end')
      .map((n) => `${n.code}: ${n.message}`)
      .join(' / '),
  };
}

describe('a live trace through the loss of a quorum leader (three-node cluster)', () => {
  it(`${MESSAGES} messages: node 2 stopped mid-trace and started again; published = acked + parked, nothing lost`, async () => {
    const d = quorumRetryDesign('cluster-trace', 'quorum', 20, true);
    const prefix = uniquePrefix('cltr');
    // declared through node 2, so node 2 leads every queue (queue-leader-locator client-local)
    await deployThroughNode2(d, prefix);
    const work = d.consumers[0]!.queue;
    expect((await mgmt1.queue('/', prefix + work))?.leader).toBe(N2.node);

    const tracePosted = Date.now();
    const t = await live.srv.post('/api/trace', {
      design: d,
      prefix,
      messages: MESSAGES,
      ratePerSecond: 150,
      durationMs: 120_000,
    });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    // read the stream live, as the web does, so every event is seen as it happens
    const stream = readSse(live.srv.base + t.body.events, { timeoutMs: 200_000 });
    // stop node 2 once a third of the messages are out, then bring it back
    const until = Date.now() + 60_000;
    while ((await live.srv.get(`/api/trace/${t.body.id}`)).body.published < MESSAGES / 3 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    const stoppedAt = Date.now();
    await clusterNodeApp(N2, 'stop_app');
    const stopMs = Date.now() - stoppedAt;
    // a new leader is elected among nodes 1 and 3
    let newLeader: string | undefined;
    for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
      newLeader = (await mgmt1.queue('/', prefix + work).catch(() => undefined))?.leader;
      if (newLeader && newLeader !== N2.node) break;
    }
    const electedMs = Date.now() - stoppedAt;
    await new Promise((r) => setTimeout(r, 2000));
    await startNode2();
    const downMs = Date.now() - stoppedAt;

    const summary = await live.waitDone(t.body.id, 150_000);
    const { frames } = await stream;
    const events = simEvents(frames);

    const okTimes = new Map<string, number>();
    for (const e of events) if (e.kind === 'processed' && e.ok) okTimes.set(e.msgId, (okTimes.get(e.msgId) ?? 0) + 1);
    const duplicates = [...okTimes].filter(([, n]) => n > 1).map(([id]) => id);
    const redelivered = new Set(
      events
        .filter((e): e is Extract<SimEvent, { kind: 'delivered' }> => e.kind === 'delivered' && e.redelivered)
        .map((e) => e.msgId),
    );
    const gap = longestGap(events);
    // trace time starts about when the trace was posted: the window node 2 was stopping, down and starting
    const during = longestGap(events, stoppedAt - tracePosted, stoppedAt - tracePosted + downMs);
    const notices = frames.filter((f) => f.event === 'notice').map((f) => (f.data as { code: string }).code);
    console.log(
      `cluster trace: published ${summary.published}, confirmed ${summary.confirmed}, acked ${summary.acked}, parked ${summary.parked}, in flight ${summary.inFlight}, dropped ${summary.dropped}; ` +
        `duplicates ${summary.duplicates} (at-least-once: processed again after a redelivery; ${redelivered.size} message(s) redelivered); ` +
        `node 2 stop_app took ${stopMs} ms, down ${downMs} ms, work queue leader moved to ${newLeader} (seen ${electedMs} ms after the stop began); ` +
        `failover pause (longest gap between events) ${Math.round(during.ms)} ms while node 2 was down (t=${Math.round(during.at)} ms), ${Math.round(gap.ms)} ms over the whole trace; reconnects ${summary.reconnects}, cancelled consumers [${summary.cancelledConsumers.join(', ')}], notices [${notices.join(', ')}]; state ${summary.state}${summary.endReason ? ` (${summary.endReason})` : ''}`,
    );

    expect(newLeader).not.toBe(N2.node);
    expect(summary.state).toBe('complete');
    expect(summary.published).toBe(MESSAGES);
    expect(summary.confirmed).toBe(MESSAGES);
    expect(summary.unaccounted).toEqual([]);
    expect(summary.inFlight).toBe(0);
    expect(summary.dropped).toBe(0);
    expect(summary.acked + summary.parked).toBe(MESSAGES);
    expect(summary.parked).toBe(MESSAGES / 20);
    // and the broker holds every parked message in the (quorum) dead-letter queue: counted exactly
    // (a passive declare; the management API's depths lag by a statistics interval), given a few
    // seconds for the last dead letters to be written
    const deadQ = d.topology.queues.find((q) => q.name !== work)!.name;
    // at-least-once dead-lettering may send a dead letter twice (its confirm lost in the leader
    // move): the broker then holds more than the trace parked, and the trace says by how many
    const twice = summary.deadLettersDuplicated?.[deadQ] ?? 0;
    let held = -1;
    for (
      const end = Date.now() + 10_000;
      Date.now() < end && held !== summary.parked + twice;
      await new Promise((r) => setTimeout(r, 250))
    ) {
      const c = await amqp.connect(N1.amqpUrl);
      try {
        held = (await (await c.createChannel()).checkQueue(prefix + deadQ)).messageCount;
      } finally {
        await c.close().catch(() => undefined);
      }
    }
    console.log(`cluster trace: ${deadQ} holds ${held}: ${summary.parked} parked, ${twice} dead-lettered twice`);
    expect(
      held,
      `messages in ${deadQ} (the trace's sampled depth: ${JSON.stringify(summary.brokerDepths[deadQ])})`,
    ).toBe(summary.parked + twice);
    expect(Object.keys(summary.deadLettersDuplicated ?? {}).filter((q) => q !== deadQ)).toEqual([]);
    expect(notices.includes('dead-letters-duplicated')).toBe(twice > 0);
    // the prediction, run again with the node loss the trace observed: fates, routes, x-death and
    // per-message order as predicted for every message; an at-least-once duplicate is the one exception, flagged
    const pr = await live.srv.get(`/api/trace/${t.body.id}/prediction?events=0`);
    expect(pr.status, JSON.stringify(pr.body)).toBe(200);
    const cmp = pr.body.comparison as Comparison;
    const loss = summary.nodeLoss;
    console.log(
      `cluster trace vs the node-loss prediction: node loss observed ${loss ? `${loss.node} at ${Math.round(loss.atMs)} ms, leaders seen moved ${JSON.stringify(loss.leadersMovedAtMs)} (modelled: after ${Math.round(loss.leaderMovesAfterMs)} ms), down ${Math.round(loss.downMs)} ms${loss.backAtMs === undefined ? ' (not seen back before the trace ended)' : ''}, queues [${loss.queues.join(', ')}]` : 'none'}; ` +
        `${cmp.matching} of ${cmp.messagesCompared} messages match the prediction with it, ${cmp.atLeastOnce} differ as at-least-once duplicates` +
        (cmp.firstDifference ? `; first difference ${JSON.stringify(cmp.firstDifference)}` : ''),
    );
    expect(pr.body.nodeLoss).toMatchObject({
      source: 'observed',
      node: N2.node,
      queues: expect.arrayContaining([work]),
    });
    expect(cmp.messagesCompared).toBe(MESSAGES);
    expect(cmp.differences.filter((x) => !x.atLeastOnce)).toEqual([]);
    expect(cmp.matching + cmp.atLeastOnce).toBe(MESSAGES);
    expect(cmp.atLeastOnce).toBe(summary.duplicates);
    // the trace reports the at-least-once duplicates itself: the same count as the events show
    expect(summary.duplicates).toBe(duplicates.length);
    // a duplicate is only ever a redelivered message processed again (the design acks after processing: at-least-once)
    for (const id of duplicates) expect(redelivered.has(id)).toBe(true);
  }, 300_000);
});

describe('a live trace through the loss of a quorum leader: dead letters and classic queues on the stopped node', () => {
  it('at-most-once dead-lettering through the leader move: every dead letter the broker dropped is counted dropped, with a notice, iff its count is short', async () => {
    // RabbitMQ's default: a quorum queue dead-letters at most once; a dead letter in flight while
    // the leader moves may be lost (seen in 2 of 3 runs), or not: the identity holds either way
    const d = quorumRetryDesign('cluster-trace-amo', 'quorum', 10, false);
    const prefix = uniquePrefix('cltra');
    await deployThroughNode2(d, prefix);
    const deadQ = d.topology.queues.find((q) => !d.consumers.some((c) => c.queue === q.name))!.name;
    const { summary, notices, said, vanished } = await traceThroughNode2Stop(
      { design: d, prefix, messages: 600, ratePerSecond: 150, durationMs: 120_000 },
      (s) => s.published >= 200,
    );
    const held = await (async () => {
      const c = await amqp.connect(N1.amqpUrl);
      try {
        return (await (await c.createChannel()).checkQueue(prefix + deadQ)).messageCount;
      } finally {
        await c.close().catch(() => undefined);
      }
    })();
    const droppedDl = summary.deadLettersDropped?.[deadQ] ?? 0;
    console.log(
      `cluster trace, at-most-once dead-lettering: published ${summary.published}, acked ${summary.acked}, parked ${summary.parked}, in flight ${summary.inFlight}, dropped ${summary.dropped} ` +
        `(dead letters dropped by the broker ${JSON.stringify(summary.deadLettersDropped ?? {})}), duplicates ${summary.duplicates}; ${deadQ} holds ${held}; notices: ${said}`,
    );
    expect(summary.state).toBe('complete');
    expect(summary.unaccounted).toEqual([]);
    expect(summary.inFlight).toBe(0);
    // every 10th message is poison and ends in the dead-letter queue, or dropped on the way
    // every 10th message is poison and ends in the dead-letter queue, or is dropped on the way (after the
    // dead-letter exchange: counted by the queue's shortfall; before it: the copy vanished from the work queue)
    expect(summary.parked + droppedDl + vanished.length).toBe(600 / 10);
    expect(summary.acked + summary.parked + summary.dropped).toBe(600);
    expect(summary.dropped).toBe(droppedDl + vanished.length);
    expect(new Set(vanished.map((e) => e.kind === 'dropped' && e.queue))).toEqual(
      new Set(vanished.length > 0 ? [d.consumers[0]!.queue] : []),
    );
    // the trace's parked count is the broker's own
    expect(held).toBe(summary.parked);
    expect(notices.some((n) => n.code === 'dead-letters-dropped')).toBe(droppedDl > 0);
  }, 300_000);

  it('a classic dead-letter queue on the stopped node: reported unavailable, the trace waits for it, then says how many dead letters the broker dropped meanwhile', async () => {
    const d = quorumRetryDesign('cluster-trace-classic', 'classic', 10);
    const prefix = uniquePrefix('cltrc');
    await deployThroughNode2(d, prefix);
    const deadQ = d.topology.queues.find((q) => q.arguments?.['x-queue-type'] !== 'quorum')!.name;
    expect(await mgmt1.queue('/', prefix + deadQ)).toMatchObject({ type: 'classic', node: N2.node });

    // published over 10 s and node 2 stopped after 2 s: stop_app took up to 7.5 s on a loaded machine, and at a
    // faster rate the trace could settle before the node was down (seen once at 100 msg/s)
    const { summary, notices, said, vanished } = await traceThroughNode2Stop(
      { design: d, prefix, messages: 300, ratePerSecond: 30, durationMs: 120_000 },
      (s) => s.published >= 60,
    );
    console.log(
      `cluster trace, classic ${deadQ} on the stopped node: published ${summary.published}, acked ${summary.acked}, parked ${summary.parked}, in flight ${summary.inFlight}, dropped ${summary.dropped} (vanished ${vanished.length}); ` +
        `unavailable ${JSON.stringify(summary.unavailable)}, lost while unavailable ${JSON.stringify(summary.lostWhileUnavailable)}; broker depth of ${deadQ} at the end ${JSON.stringify(summary.brokerDepths[deadQ])}; notices: ${said}`,
    );
    expect(summary.state).toBe('complete');
    expect(summary.endedWaitingFor, said).toBeUndefined();
    expect(notices.map((n) => n.code)).toEqual(expect.arrayContaining(['queue-unavailable', 'queue-available']));
    expect(notices.find((n) => n.code === 'queue-unavailable')?.message).toMatch(
      new RegExp(
        `^queue '${deadQ.replace('.', '\\.')}' is unavailable \\(.*(process is stopped by supervisor|is down or inaccessible)\\): the \\d+ message\\(s\\) the trace saw routed into it are accounted once it is back`,
      ),
    );
    expect(summary.unavailable[deadQ]).toEqual({ fromMs: expect.any(Number), untilMs: expect.any(Number) });
    // the work queue dead-letters at most once: a dead letter lost in its leader move, before the
    // dead-letter exchange, is the only drop, named (vanished from the work queue)
    expect(summary.dropped).toBe(vanished.length);
    expect(vanished.every((e) => e.kind === 'dropped' && e.queue === d.consumers[0]!.queue)).toBe(true);
    expect(summary.unaccounted).toEqual([]);
    expect(summary.inFlight).toBe(0);
    expect(summary.acked + summary.parked + summary.dropped).toBe(300);
    // what the broker holds in the classic queue, back with its node; dead letters routed to it
    // while it was down were dropped by the broker (at-most-once dead-lettering): the trace says how many
    const held = summary.brokerDepths[deadQ].ready;
    expect(held).toBeGreaterThan(0);
    expect(held + (summary.lostWhileUnavailable[deadQ] ?? 0)).toBe(summary.parked);
    if (held < summary.parked) expect(notices.map((n) => n.code)).toContain('lost-while-unavailable');
  }, 300_000);

  it('a consumed classic queue on the stopped node: its consumer is cancelled, the queue reported unavailable, consumed again once back; every message acked', async () => {
    const d = design({
      name: 'cluster-trace-classic-work',
      exchanges: [{ name: 'work', type: 'direct' }],
      queues: [{ name: 'work.q' }],
      bindings: [bindQ('work', 'work.q', 'job')],
      consumers: [
        {
          id: 'worker',
          queue: 'work.q',
          prefetch: 1,
          behaviour: { kind: 'worker', processingMs: 20, failure: { kind: 'never' }, onFailure: [] },
        },
      ],
      publishers: [{ id: 'p', exchange: 'work', routingKey: 'job', bodyPrefix: 'm' }],
    });
    const prefix = uniquePrefix('cltrw');
    await deployThroughNode2(d, prefix);
    expect(await mgmt1.queue('/', `${prefix}work.q`)).toMatchObject({ type: 'classic', node: N2.node });

    // every message published (and persisted) before the node stops, most still waiting in the queue
    const { summary, notices, said } = await traceThroughNode2Stop(
      { design: d, prefix, messages: 200, durationMs: 120_000 },
      (s) => s.confirmed >= 200,
    );
    console.log(
      `cluster trace, consumed classic work.q on the stopped node: published ${summary.published}, acked ${summary.acked}, in flight ${summary.inFlight}, dropped ${summary.dropped}, duplicates ${summary.duplicates}; ` +
        `unavailable ${JSON.stringify(summary.unavailable)}; notices: ${said}`,
    );
    expect(summary.state).toBe('complete');
    expect(notices.map((n) => n.code)).toEqual(
      expect.arrayContaining(['consumer-cancelled', 'queue-unavailable', 'queue-available', 'consumer-resumed']),
    );
    expect(notices.find((n) => n.code === 'consumer-cancelled')?.message).toMatch(
      /^consumer 'worker' was cancelled by the broker: queue 'work\.q' is unavailable/,
    );
    expect(summary.cancelledConsumers).toEqual([]);
    expect(summary.dropped).toBe(0);
    expect(summary.unaccounted).toEqual([]);
    expect(summary.acked).toBe(200);
  }, 300_000);
});
