import { describe, expect, it } from 'vitest';
import { DEFAULT_LEADER_MOVE_MS } from '@retry-studio/topology-core/sim';
import { NodeLossWatch, type PolledQueue } from './nodeLossWatch.js';

const nodes = (down: string[] = []) => ['n1', 'n2', 'n3'].map((name) => ({ name, running: !down.includes(name) }));
const q = (name: string, home: string | undefined, quorum = true): PolledQueue => ({ name, quorum, home });

describe('NodeLossWatch', () => {
  it('no node down: no loss', () => {
    const w = new NodeLossWatch();
    w.observe(0, nodes(), [q('work', 'n2')]);
    w.observe(1000, nodes(), [q('work', 'n2')]);
    expect(w.loss(2000)).toBeUndefined();
  });

  it('a node that led the queues stops, a new leader is seen, the node comes back: the times as observed', () => {
    const w = new NodeLossWatch();
    w.observe(0, nodes(), [q('work', 'n2'), q('dlq', 'n2'), q('other', 'n1')]);
    w.observe(1000, nodes(['n2']), [q('work', 'n2'), q('dlq', undefined), q('other', 'n1')]);
    w.observe(2000, nodes(['n2']), [q('work', 'n1'), q('dlq', 'n2'), q('other', 'n1')]);
    w.observe(3000, nodes(['n2']), [q('work', 'n1'), q('dlq', 'n3'), q('other', 'n1')]);
    w.observe(5000, nodes(), [q('work', 'n1'), q('dlq', 'n3'), q('other', 'n1')]);
    expect(w.loss(9000)).toEqual({
      node: 'n2',
      atMs: 1000,
      downMs: 4000,
      leaderMovesAfterMs: 2000,
      leadersMovedAtMs: { work: 2000, dlq: 3000 },
      backAtMs: 5000,
      queues: ['work', 'dlq'],
    });
  });

  it('a classic queue has no leader to move; a node still down at the end is down until then; only the first loss is kept', () => {
    const w = new NodeLossWatch();
    w.observe(0, nodes(), [q('park', 'n3', false)]);
    w.observe(500, nodes(['n3']), [q('park', undefined, false)]);
    w.observe(900, nodes(['n3', 'n1']), [q('park', undefined, false)]);
    expect(w.loss(4000)).toEqual({
      node: 'n3',
      atMs: 500,
      downMs: 3500,
      leaderMovesAfterMs: DEFAULT_LEADER_MOVE_MS,
      leadersMovedAtMs: {},
      queues: ['park'],
    });
  });

  it('a graceful stop hands leadership over before the node reports stopped: the loss starts at the move', () => {
    const w = new NodeLossWatch();
    w.observe(0, nodes(), [q('work', 'n2')]);
    w.observe(1000, nodes(), [q('work', 'n3')]);
    w.observe(2000, nodes(['n2']), [q('work', 'n3')]);
    w.observe(3000, nodes(), [q('work', 'n3')]);
    expect(w.loss(5000)).toEqual({
      node: 'n2',
      atMs: 1000,
      downMs: 2000,
      leaderMovesAfterMs: 0,
      leadersMovedAtMs: { work: 1000 },
      backAtMs: 3000,
      queues: ['work'],
    });
  });

  it('a leader moved while every node keeps running (a rebalance) is a new home, not a loss', () => {
    const w = new NodeLossWatch();
    w.observe(0, nodes(), [q('work', 'n2')]);
    w.observe(1000, nodes(), [q('work', 'n3')]);
    w.observe(12_000, nodes(), [q('work', 'n3')]);
    w.observe(13_000, nodes(['n2']), [q('work', 'n3')]);
    expect(w.loss(14_000)).toMatchObject({ node: 'n2', atMs: 13_000, queues: [] });
  });

  it('a node already down when the trace starts is not a loss the trace saw', () => {
    const w = new NodeLossWatch();
    w.observe(0, nodes(['n2']), [q('work', 'n1')]);
    w.observe(1000, nodes(['n2']), [q('work', 'n1')]);
    expect(w.seen).toBe(false);
  });
});
