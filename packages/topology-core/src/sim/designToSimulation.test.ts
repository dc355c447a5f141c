import { describe, expect, it } from 'vitest';
import { designToSimulation } from './designToSimulation.js';
import { simulate } from './simulate.js';
import { T } from '../../testing/builders.js';
import { DESIGN_FORMAT, DESIGN_VERSION, type Design } from '../model/design.js';

const design: Design = {
  format: DESIGN_FORMAT,
  version: DESIGN_VERSION,
  name: 'd',
  profile: '4.x',
  topology: T.topology(T.exchange('x'), T.queue('q'), T.bind('x', 'q', 'k')),
  consumers: [],
  publishers: [
    { id: 'p1', exchange: 'x', routingKey: 'k', bodyPrefix: 'order' },
    { id: 'p2', exchange: 'x', routingKey: 'k' },
  ],
};

describe('designToSimulation', () => {
  it('each publisher publishes N messages named `${bodyPrefix ?? id}-${n}`, rounds spaced by intervalMs', () => {
    const input = designToSimulation(design, { messages: 2, intervalMs: 100, seed: 9 });
    expect(input.steps).toEqual([
      { kind: 'publish', exchange: 'x', routingKey: 'k', body: 'order-1', msgId: 'p1-1' },
      { kind: 'publish', exchange: 'x', routingKey: 'k', body: 'p2-1', msgId: 'p2-1' },
      { kind: 'wait', ms: 100 },
      { kind: 'publish', exchange: 'x', routingKey: 'k', body: 'order-2', msgId: 'p1-2' },
      { kind: 'publish', exchange: 'x', routingKey: 'k', body: 'p2-2', msgId: 'p2-2' },
    ]);
    expect(input.profile).toBe('4.x');
    expect(input.seed).toBe(9);
    expect(simulate(input).final['q']?.map((m) => m.body)).toEqual(['order-1', 'p2-1', 'order-2', 'p2-2']);
  });
});
