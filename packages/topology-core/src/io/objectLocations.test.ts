import { describe, expect, it } from 'vitest';
import { objectLocator } from './objectLocations.js';

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('objectLocator', () => {
  it('finds queues, exchanges, consumers and publishers in a design file', () => {
    const design = {
      format: 'retry-studio/design',
      topology: { exchanges: [{ name: 'work' }], queues: [{ name: 'a.q' }, { name: 'b.q' }], bindings: [] },
      consumers: [{ id: 'w1', queue: 'a.q' }],
      publishers: [{ id: 'p1' }],
    };
    const text = JSON.stringify(design, null, 2);
    const at = objectLocator(text);
    expect(at('queue:b.q')).toMatchObject({
      pointer: '/topology/queues/1',
      line: lineOf(text, '"name": "b.q"') - 1,
      column: 7,
    });
    expect(at('exchange:work')?.pointer).toBe('/topology/exchanges/0');
    expect(at('consumer:w1')?.pointer).toBe('/consumers/0');
    expect(at('publisher:p1')?.pointer).toBe('/publishers/0');
    expect(at('queue:missing')).toBeUndefined();
    expect(at('exchange:')).toBeUndefined();
  });

  it('in a definitions file, picks the object of the vhost that was read', () => {
    const defs = {
      queues: [
        { name: 'q', vhost: 'a' },
        { name: 'q', vhost: 'b' },
      ],
    };
    const text = JSON.stringify(defs, null, 1);
    expect(objectLocator(text, { vhost: 'b' })('queue:q')?.pointer).toBe('/queues/1');
    expect(objectLocator(text)('queue:q')?.pointer).toBe('/queues/0');
    expect(objectLocator('not json')('queue:q')).toBeUndefined();
  });
});
