// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Design, FailureModel } from '@retry-studio/topology-core/model';
import { retryHorizon } from '@retry-studio/topology-core/sim';
import { createAppStore } from './store';
import { dlxTtlRetry } from '../fixtures/designs';
import { runDesignSimulation } from '../sim/runSimulation';
import { storiesOf } from '../panels/messageStory';

const design = dlxTtlRetry({ ttl: 1000, max: 3 });

function simulatedEvents(failure: FailureModel, messages = 3) {
  const r = runDesignSimulation(design, { messages, failure, seed: 1 });
  if ('error' in r) throw new Error(r.error);
  return r;
}

function storeWith() {
  const store = createAppStore();
  store.getState().loadDesign({ ...design, name: 'live' }, { history: false });
  return store;
}

describe('live lanes read the core outcome function (issue 29 item 1, issue 30)', () => {
  it('the same event stream gives the same outcome as a live trace and as a simulated run', () => {
    for (const failure of [
      { kind: 'always' },
      { kind: 'failFirst', n: 1 },
      { kind: 'failFirst', n: 3 },
    ] as FailureModel[]) {
      const r = simulatedEvents(failure);
      const store = storeWith();
      store.getState().setLiveEvents(r.events, { running: true, failure });
      const live = store.getState().liveOutcomes;
      expect(Object.keys(live).sort()).toEqual(Object.keys(r.outcomes).sort());
      for (const [id, o] of Object.entries(r.outcomes))
        expect(live[id]!.outcome, `${failure.kind} ${id}`).toEqual(o.outcome);
    }
  });

  it('a trace whose broker parked all 3 messages: every live lane ends "parked in parking.q", none waiting or in flight', () => {
    const r = simulatedEvents({ kind: 'always' });
    const store = storeWith();
    // what the broker did, streamed while the trace still runs (the replay froze there in issue 30), then ended
    for (const running of [true, false]) {
      store.getState().setLiveEvents(r.events, { running, failure: { kind: 'always' } });
      const s = store.getState();
      const lanes = storiesOf(s.liveEvents!, s.liveOutcomes);
      expect(lanes).toHaveLength(3);
      for (const lane of lanes) {
        expect(lane.fate).toBe('parked in parking.q');
        expect(lane.tone).toBe('rest');
      }
    }
  });

  it('a message still in the wait queue while the trace runs is still moving, and says where it got to', () => {
    const r = simulatedEvents({ kind: 'always' }, 1);
    const inWait = r.events.findIndex((e) => e.kind === 'enqueued' && e.queue === 'wait.q');
    expect(inWait).toBeGreaterThan(0);
    const store = storeWith();
    store.getState().setLiveEvents(r.events.slice(0, inWait + 1), { running: true, failure: { kind: 'always' } });
    const [lane] = storiesOf(store.getState().liveEvents!, store.getState().liveOutcomes);
    expect(lane!.fate).toMatch(/^still moving at .*: attempt 1, in wait\.q$/);
    expect(lane!.tone).toBe('open');
  });

  it("the server's prediction drawn beside a trace states its own outcomes, not the last local simulation's", () => {
    const store = storeWith();
    store.getState().setFailure({ kind: 'failFirst', n: 1 });
    store.getState().runSimulation();
    expect(Object.values(store.getState().simOutcomes).every((o) => o.outcome.kind === 'acked')).toBe(true);
    // the trace ran 'always': its prediction parks every message, under the same message ids
    store.getState().setLiveEvents([], { running: true, failure: { kind: 'always' } });
    store.getState().setPredictedEvents(simulatedEvents({ kind: 'always' }).events, retryHorizon(design));
    const outs = Object.values(store.getState().simOutcomes);
    expect(outs).toHaveLength(3);
    for (const o of outs) expect(o.text).toBe('parked in parking.q');
  });

  it('a predicted loop is worded as simulate words it: cut by the horizon the prediction ran to, and never ending', () => {
    // the worker only rejects: every round goes through the hour-long wait queue, for ever
    const hourly = dlxTtlRetry({ ttl: 3_600_000, max: 3 });
    const forever: Design = {
      ...hourly,
      consumers: hourly.consumers.map((c) => ({
        ...c,
        behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] },
      })),
    };
    const r = runDesignSimulation(forever, { messages: 1, failure: { kind: 'always' }, seed: 1 });
    if ('error' in r) throw new Error(r.error);
    const store = createAppStore();
    store.getState().loadDesign({ ...forever, name: 'predicted' }, { history: false });
    store.getState().setLiveEvents([], { running: true, failure: { kind: 'always' } });
    store.getState().setPredictedEvents(r.events, retryHorizon(forever));
    const [o] = Object.values(store.getState().simOutcomes);
    expect(o!.text).toMatch(
      /^still moving when the 24 h horizon ended: attempt 25, cycling through .*; it never ends$/,
    );
  });
});
