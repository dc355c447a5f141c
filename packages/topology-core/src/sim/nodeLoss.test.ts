import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';
import { DEFAULT_LEADER_MOVE_MS, parseNodeLoss, type NodeLoss } from './nodeLoss.js';

/** m0..m9, one every 100 ms, into Q; the consumer acks each */
const tenSpaced = Array.from({ length: 10 }, (_, i) => [S.publish('', 'Q', `m${i}`), S.wait(100)]).flat();
const loss = (o: Partial<NodeLoss> = {}): NodeLoss => ({
  node: 'rabbit-c2@h',
  atMs: 250,
  downMs: 3000,
  leaderMovesAfterMs: 800,
  queues: ['Q'],
  ...o,
});
const deliveredAt = (r: ReturnType<typeof run>) => r.of('delivered').map((e) => Math.round(e.t));

describe('node loss', () => {
  const consumers = [C.script('Q', A.ack)];

  it('without a node loss every message is delivered as it arrives', () => {
    const r = run({ topology: T.topology(T.queue('Q', { quorum: true })), consumers, steps: tenSpaced });
    expect(deliveredAt(r)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });

  it('a quorum queue led by the lost node pauses until a new leader is elected, then catches up; nothing is lost', () => {
    const r = run({
      topology: T.topology(T.queue('Q', { quorum: true })),
      consumers,
      steps: tenSpaced,
      nodeLoss: loss(),
    });
    // m3..m10 arrive during the election (250..1050 ms): delivered at 1050, then the rest as they come
    expect(deliveredAt(r)).toEqual([0, 100, 200, 1050, 1050, 1050, 1050, 1050, 1050, 1050]);
    expect(r.delivered('Q')).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9']);
    expect(r.of('acked')).toHaveLength(10);
  });

  it('a classic queue on the lost node is unavailable until the node returns', () => {
    const r = run({ topology: T.topology(T.queue('Q')), consumers, steps: tenSpaced, nodeLoss: loss() });
    expect(deliveredAt(r)).toEqual([0, 100, 200, ...Array(7).fill(3250)]);
    expect(r.of('acked')).toHaveLength(10);
  });

  it('queues on other nodes are not affected', () => {
    const r = run({
      topology: T.topology(T.queue('Q'), T.queue('other')),
      consumers,
      steps: tenSpaced,
      nodeLoss: loss({ queues: ['other'] }),
    });
    expect(deliveredAt(r)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });

  it('a queue that is not in the topology is named', () => {
    expect(() =>
      run({
        topology: T.topology(T.queue('Q')),
        consumers,
        steps: tenSpaced,
        nodeLoss: loss({ queues: ['Q', 'nope'] }),
      }),
    ).toThrow("nodeLoss.queues[1]: no queue 'nope' in the topology");
    expect(() =>
      run({ topology: T.topology(T.queue('Q')), consumers, steps: tenSpaced, nodeLoss: loss({ downMs: -1 }) }),
    ).toThrow(/^nodeLoss\.downMs: downMs must be a number of ms >= 0/);
  });
});

describe('parseNodeLoss (a node loss given as data)', () => {
  const queues = new Set(['Q', 'dlq']);
  it('takes a well-formed node loss, the leader-move delay defaulting to a graceful stop', () => {
    expect(parseNodeLoss({ node: 'rabbit-c2@h', atMs: 100, downMs: 3000, queues: ['Q'] }, queues)).toEqual({
      loss: { node: 'rabbit-c2@h', atMs: 100, downMs: 3000, leaderMovesAfterMs: DEFAULT_LEADER_MOVE_MS, queues: ['Q'] },
    });
  });
  it.each([
    [null, 'nodeLoss', /must be an object/],
    [{ node: '', atMs: 0, downMs: 1, queues: [] }, 'nodeLoss.node', /node name/],
    [{ node: 'n', atMs: '5', downMs: 1, queues: [] }, 'nodeLoss.atMs', /number of ms/],
    [{ node: 'n', downMs: 1, queues: [] }, 'nodeLoss.atMs', /number of ms >= 0, got undefined/],
    [{ node: 'n', atMs: 0, downMs: -1, queues: [] }, 'nodeLoss.downMs', /number of ms >= 0/],
    [{ node: 'n', atMs: 0, downMs: 1, queues: 'Q' }, 'nodeLoss.queues', /array of queue names/],
    [{ node: 'n', atMs: 0, downMs: 1, queues: ['Q', 7] }, 'nodeLoss.queues[1]', /must be a string/],
    [{ node: 'n', atMs: 0, downMs: 1, queues: ['nope'] }, 'nodeLoss.queues[0]', /no queue 'nope'/],
    [{ node: 'n', atMs: 0, downMs: 1, queues: [], extra: 1 }, 'nodeLoss.extra', /unknown field/],
  ])('names the field of a bad node loss: %j', (x, path, message) => {
    const r = parseNodeLoss(x, queues);
    expect(r).toMatchObject({ path });
    expect('message' in r && r.message).toMatch(message);
  });
});
