import { describe, expect, it } from 'vitest';
import { lintDesign } from '../lintDesign.js';
import { T, C, A } from '../../../testing/builders.js';
import type { Design } from '../../model/design.js';
import type { BrokerProfileId } from '../../model/design.js';

const design = (deadTarget: { stream?: boolean }, profile: BrokerProfileId): Design => ({
  format: 'retry-studio/design',
  version: 1,
  name: 'd',
  profile,
  topology: T.topology(
    T.exchange('dlx', 'fanout'),
    T.queue('work', { dlx: 'dlx' }),
    T.queue('dead', deadTarget),
    T.bind('dlx', 'dead'),
  ),
  consumers: [C.script('work', A.reject)],
  publishers: [{ id: 'p', exchange: '', routingKey: 'work' }],
});
const ids = (d: Design) => lintDesign(d).filter((f) => f.id === 'dead-letter-into-stream');

describe('dead-letter-into-stream', () => {
  it('is an error on 3.10 when a DLX routes to a stream, naming both', () => {
    const [f] = ids(design({ stream: true }, '3.10'));
    expect(f?.severity).toBe('error');
    expect(f?.message).toMatch(/work .* stream dead: RabbitMQ 3.10 drops them/);
  });
  it('says nothing on 4.x, or for a queue target', () => {
    expect(ids(design({ stream: true }, '4.3'))).toEqual([]);
    expect(ids(design({}, '3.10'))).toEqual([]);
  });
});
