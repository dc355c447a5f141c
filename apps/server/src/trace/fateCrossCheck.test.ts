/**
 * The cross-check of the one copy ledger: the same event sequences go through every reader of
 * it (the core's outcomes from events, this trace accounting, the web's playback, the
 * rehearsal's tally) and each must state the same fate for every message.
 *
 * Sequences: every recorded conformance scenario (../shared/conformance on RabbitMQ 3.10.8 and
 * 4.3.6, and the core's own recordings) run on the simulator, which reproduces each recording
 * (the core's conformance test), so their fates are also checked against what the broker kept
 * (`final`, `publish_nacked`, `returned`); a fixed-seed batch of the fuzzer's random topologies;
 * and hand-built live sequences: a publish the broker nacks, acks that arrive before the copy
 * they settle, a stream that keeps the copy its reader acked, a publish resent after a lost confirm.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import { countedAs, Tally } from '@retry-studio/topology-core/rehearse';
import { scenarioConsumers, simulateScenario, type Scenario } from '@retry-studio/topology-core/scenario';
import {
  fateRulesOf,
  outcomesOfEvents,
  type FateRules,
  type MessageOutcome,
  type SimEvent,
} from '@retry-studio/topology-core/sim';
import { compilePlayback } from '../../../web/src/sim/compilePlayback';
import { generateScenario, topologySeed } from '../fuzz/generateScenario.js';
import { TraceAccounting, type CopyStart } from './accounting.js';
import type { EventInput } from './traceContext.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(here, '../../../..');
const sharedDir = process.env.CONFORMANCE_SHARED_DIR ?? resolve(repoRoot, '../shared');

function scenarios(dir: string): { file: string; scenario: Scenario }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, scenario: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Scenario }));
}

const designOf = (s: Scenario): Design =>
  ({
    format: 'retry-studio/design',
    version: 1,
    name: s.name,
    topology: s.topology,
    consumers: scenarioConsumers(s),
    publishers: [],
  }) as unknown as Design;

/** An outcome without where the reader's clock stood (each reader stops its own clock). */
function same(o: MessageOutcome | undefined): unknown {
  if (o?.kind !== 'moving') return o ?? 'no fate';
  return { kind: 'moving', attempts: o.attempts, cycle: o.cycle };
}

/** The live trace's accounting fed the events as a trace would: a copy's first hop named. */
function throughAccounting(
  events: readonly SimEvent[],
  rules: FateRules,
  lane: (e: SimEvent) => string = () => 'trace',
): { fates: Map<string, MessageOutcome | undefined>; out: SimEvent[] } {
  let clock = 0;
  let seq = 0;
  const out: SimEvent[] = [];
  const acc = new TraceAccounting({ rules, now: () => clock, nextSeq: () => ++seq, out: (e) => out.push(e) });
  const lastKind = new Map<string, SimEvent['kind']>();
  for (const e of events) {
    clock = Math.max(clock, e.t);
    const before = lastKind.get(e.msgId);
    const start: CopyStart | undefined =
      e.kind !== 'routed'
        ? undefined
        : before === 'published'
          ? 'publish'
          : before === 'dead-lettered'
            ? 'dead-letter'
            : undefined;
    const { t: _t, seq: _s, ...input } = e;
    acc.add(lane(e), input as EventInput, start ? { start } : {});
    lastKind.set(e.msgId, e.kind);
  }
  acc.flush(true);
  const live = (q: string): boolean => rules.active.has(q);
  const ids = new Set(events.map((e) => e.msgId).filter((id) => id !== ''));
  return { fates: new Map([...ids].map((id) => [id, acc.fate(id, live)])), out };
}

/** The rehearsal's tally over the events (messages numbered as a publish plan numbers them): its counts by outcome. */
function throughTally(events: readonly SimEvent[], rules: FateRules, endT: number) {
  const number = new Map<string, number>();
  for (const e of events) if (e.msgId !== '' && !number.has(e.msgId)) number.set(e.msgId, number.size + 1);
  const n = number.size;
  const plan = {
    kind: 'per-message' as const,
    count: n,
    publishAt: new Float64Array(n),
    weight: new Float64Array(n).fill(1),
    ordinal: new Float64Array(n),
    poisonU: new Float64Array(n),
    spanMs: new Float64Array(n),
    bucketMs: 0,
  };
  const queues = rules.active.size > 0 ? [...rules.active] : [];
  const tally = new Tally({
    plan,
    queues,
    sampleMs: 1000,
    steadyUntil: Infinity,
    drainFrom: Infinity,
    maxEventsPerInstant: 1e9,
    rules,
  });
  for (const e of events) if (e.msgId !== '') tally.onEvent({ ...e, msgId: String(number.get(e.msgId)) } as SimEvent);
  tally.finishOutcomes(endT);
  return {
    acked: tally.acked,
    parked: tally.parked,
    dropped: tally.dropped,
    expired: tally.expired,
    inFlight: tally.inFlight,
    parkedIn: { ...tally.parkedIn },
  };
}

/** Every reader's fates of one event sequence, checked to agree; returns the core's. */
function agree(label: string, design: Design, events: readonly SimEvent[], running: boolean) {
  const rules = fateRulesOf(design);
  const core = outcomesOfEvents(design, events, { running }).byMsg;
  const ids = [...core.keys()];
  expect(ids.length, `${label}: messages`).toBeGreaterThan(0);
  const acc = throughAccounting(events, rules).fates;
  const plan = compilePlayback(events, 1, { hop: 420, fates: { rules, running } });
  for (const id of ids) {
    const want = same(core.get(id));
    expect(same(acc.get(id)), `${label} ${id}: the trace accounting`).toEqual(want);
    expect(same(plan.byMsg.get(id)?.fate), `${label} ${id}: the web's playback`).toEqual(want);
  }
  const endT = events.reduce((t, e) => Math.max(t, e.t), 0);
  const tally = throughTally(events, rules, endT);
  const counts = { acked: 0, parked: 0, dropped: 0, expired: 0, inFlight: 0 };
  const parkedIn: Record<string, number> = {};
  for (const o of core.values()) {
    counts[countedAs(o)] += 1;
    if (o.kind === 'parked') for (const q of [o.queue, ...(o.also ?? [])]) parkedIn[q] = (parkedIn[q] ?? 0) + 1;
  }
  expect(tally, `${label}: the rehearsal's tally`).toEqual({ ...counts, parkedIn });
  return core;
}

/** What the broker kept, against the fates: a parked copy is where the broker had it, a refusal was one. */
function checkRecording(
  label: string,
  s: Scenario,
  events: readonly SimEvent[],
  fates: ReadonlyMap<string, MessageOutcome>,
) {
  const exp = s.expect;
  if (!exp) return;
  const bodyOf = new Map<string, string>();
  const bodies = new Map<string, number>();
  for (const e of events)
    if (e.kind === 'published' && e.origin.kind !== 'consumer' && !bodyOf.has(e.msgId)) {
      bodyOf.set(e.msgId, e.body);
      bodies.set(e.body, (bodies.get(e.body) ?? 0) + 1);
    }
  const inFinal = (q: string, body: string): boolean => (exp.final?.[q] ?? []).some((m) => m.body === body);
  for (const [id, o] of fates) {
    const body = bodyOf.get(id);
    if (body === undefined || bodies.get(body) !== 1) continue;
    const where = `${label} ${id} (${body}) ${JSON.stringify(o)}`;
    if (o.kind === 'parked') for (const q of [o.queue, ...(o.also ?? [])]) expect(inFinal(q, body), where).toBe(true);
    if (o.kind === 'publish-nacked') expect(exp.publish_nacked ?? [], where).toContain(body);
    if (o.kind === 'returned') expect(exp.returned ?? [], where).toContain(body);
    if (o.kind === 'acked' || o.kind === 'dropped' || o.kind === 'expired' || o.kind === 'limit')
      expect(
        Object.keys(exp.final ?? {}).filter((q) => inFinal(q, body)),
        where,
      ).toEqual([]);
  }
}

const recorded = [
  ['shared scenarios, RabbitMQ 3.10.8', join(sharedDir, 'conformance', 'scenarios'), 9],
  ['shared scenarios, RabbitMQ 4.3.6', join(sharedDir, 'conformance', 'scenarios-4.3'), 7],
  ['our recordings, RabbitMQ 3.10.8', join(repoRoot, 'packages/topology-core/conformance/scenarios'), 45],
  ['our recordings, RabbitMQ 4.3.6', join(repoRoot, 'packages/topology-core/conformance/scenarios-4.3'), 1],
] as const;

/** A live-trace-like design: a worker on `work` (dead letters to `parking`), a reader on the stream `s`. */
function liveDesign(declareStream = true): Design {
  const q = (name: string, args: Record<string, unknown> = {}) => ({
    name,
    durable: true,
    auto_delete: false,
    arguments: args,
  });
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 'live',
    topology: {
      exchanges: [{ name: 'in', type: 'fanout', durable: true, auto_delete: false, arguments: {} }],
      queues: [
        q('work', { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'parking' }),
        q('parking'),
        q('s', declareStream ? { 'x-queue-type': 'stream' } : {}),
      ],
      bindings: [],
    },
    consumers: [
      { id: 'w', queue: 'work', behaviour: { kind: 'worker' } },
      { id: 'reader', queue: 's', behaviour: { kind: 'worker' } },
    ],
    publishers: [],
  } as unknown as Design;
}

/** one message's live events, stamped in order */
function journey(msgId: string) {
  const out: SimEvent[] = [];
  const add = (e: Record<string, unknown>): SimEvent => {
    const ev = { t: out.length, seq: out.length, msgId, body: msgId, ...e } as SimEvent;
    out.push(ev);
    return ev;
  };
  const delivery = { redelivered: false, headers: {}, routingKey: 'k', exchange: 'in' };
  return {
    out,
    published: () =>
      add({
        kind: 'published',
        exchange: 'in',
        routingKey: 'k',
        origin: { kind: 'publisher', id: 'p' },
        headers: {},
        mandatory: false,
      }),
    routed: (queues: string[]) => add({ kind: 'routed', exchange: 'in', routingKeys: ['k'], queues, exchanges: [] }),
    enqueued: (queue: string) => add({ kind: 'enqueued', queue, depth: 1 }),
    delivered: (queue: string, consumer: string, headers: Record<string, unknown> = {}) =>
      add({ kind: 'delivered', queue, consumer, ...delivery, headers }),
    processed: (queue: string, consumer: string, attempt: number, ok: boolean) =>
      add({ kind: 'processed', queue, consumer, attempt, ok }),
    acked: (queue: string, consumer: string) => add({ kind: 'acked', queue, consumer }),
    nacked: () => add({ kind: 'publish-nacked', queue: '', reason: 'overflow' }),
  };
}

describe('one fate for every reader of the copy ledger', () => {
  it('a publish the broker nacks (a live trace sees only the confirm): publish-nacked everywhere, not acked', () => {
    const j = journey('m');
    j.published();
    j.nacked();
    const core = agree('publish-nacked', liveDesign(), j.out, true);
    expect(core.get('m')).toEqual({ kind: 'publish-nacked' });
  });

  it('acks that arrive before the copy they settle: the accounting orders them, and every reader says acked', () => {
    const j = journey('m');
    j.published();
    // the worker's lane is ahead of the observation of the exchange hop
    j.delivered('work', 'w');
    j.processed('work', 'w', 1, true);
    j.acked('work', 'w');
    j.routed(['work']);
    j.enqueued('work');
    const design = liveDesign();
    const rules = fateRulesOf(design);
    const lane = (e: SimEvent): string =>
      e.kind === 'published' ? 'publisher' : e.kind === 'routed' || e.kind === 'enqueued' ? 'observer' : 'worker';
    const { fates, out } = throughAccounting(j.out, rules, lane);
    expect(out.map((e) => e.kind)).toEqual(['published', 'routed', 'enqueued', 'delivered', 'processed', 'acked']);
    const core = agree('out of order, as the trace sends it on', design, out, true);
    expect(core.get('m')).toEqual({ kind: 'acked', consumer: 'w', attempt: 1 });
    expect(same(fates.get('m'))).toEqual(same(core.get('m')));
    // read as it came (the debts the late copy pays back), the same
    expect(outcomesOfEvents(design, j.out, { running: true }).byMsg.get('m')).toEqual(core.get('m'));
  });

  it.each([
    ['declared a stream', true],
    ['known by its deliveries (x-stream-offset)', false],
  ])(
    'a stream keeps the copy its reader acked (%s): parked in it everywhere, as the broker keeps it',
    (_label, declared) => {
      const j = journey('m');
      j.published();
      j.routed(['s']);
      j.enqueued('s');
      j.delivered('s', 'reader', { 'x-stream-offset': 0 });
      j.processed('s', 'reader', 1, true);
      j.acked('s', 'reader');
      const core = agree('stream', liveDesign(declared), j.out, true);
      expect(core.get('m')).toEqual({ kind: 'parked', queue: 's', otherCopies: { processed: 1, dropped: 0 } });
    },
  );

  it('a publish resent after a lost confirm: two copies, both processed; one fate everywhere', () => {
    const j = journey('m');
    for (let i = 0; i < 2; i++) {
      j.published();
      j.routed(['work']);
      j.enqueued('work');
    }
    for (let i = 1; i <= 2; i++) {
      j.delivered('work', 'w');
      j.processed('work', 'w', i, true);
      j.acked('work', 'w');
    }
    const core = agree('resent', liveDesign(), j.out, true);
    expect(core.get('m')).toEqual({ kind: 'acked', consumer: 'w', attempt: 2 });
  });

  describe.each(recorded)('recorded traces: %s', (_label, dir, atLeast) => {
    const files = scenarios(dir);
    it(`finds at least ${atLeast} recordings`, () => expect(files.length).toBeGreaterThanOrEqual(atLeast));
    for (const { file, scenario } of files)
      it(file, () => {
        const run = simulateScenario(scenario);
        const design = designOf(scenario);
        const fates = agree(file, design, run.result.events, run.result.truncated);
        if (run.settled) checkRecording(file, scenario, run.result.events, fates);
      });
  });

  it.each(['3.10', '4.3'] as const)('the fuzzer: 40 random topologies (seed 1) on the %s profile', (profile) => {
    for (let i = 0; i < 40; i++) {
      const s = generateScenario(topologySeed(1, i), `fuzz-${i}`);
      const run = simulateScenario(s, { profile });
      agree(`fuzz #${i} (${profile})`, designOf(s), run.result.events, run.result.truncated);
    }
  });
});
