import { describe, expect, it } from 'vitest';
import type { AmqpTable } from '../../model/definitions.js';
import type { BrokerProfileId, Design } from '../../model/design.js';
import { lintDesign } from '../lintDesign.js';

function design(profile: BrokerProfileId, args: AmqpTable, policy?: AmqpTable): Design {
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 't',
    profile,
    topology: {
      exchanges: [],
      queues: [{ name: 'jobs', durable: true, arguments: { 'x-queue-type': 'quorum', ...args } }],
      bindings: [],
      policies: policy
        ? [{ name: 'retry', pattern: '^jobs$', 'apply-to': 'quorum_queues', priority: 0, definition: policy }]
        : [],
    },
    consumers: [],
    publishers: [],
  };
}
const found = (d: Design, id: string) => lintDesign(d).filter((f) => f.id === id);

describe('delayed retry as RabbitMQ 4.3 reads it (lint)', () => {
  it('a refused policy names the queues it would govern, not one a higher-priority policy wins', () => {
    const d = design('4.3', {}, { 'delayed-retry-type': 'all' });
    const outranked: Design = {
      ...d,
      topology: {
        ...d.topology,
        queues: [
          ...d.topology.queues,
          { name: 'jobs-archive', durable: true, arguments: { 'x-queue-type': 'quorum' } },
        ],
        policies: [
          {
            name: 'retry',
            pattern: '^jobs',
            'apply-to': 'quorum_queues',
            priority: 0,
            definition: { 'delayed-retry-type': 'all' },
          },
          { name: 'archive', pattern: 'archive$', 'apply-to': 'queues', priority: 5, definition: { 'max-length': 10 } },
        ],
      },
    };
    const [f] = found(outranked, 'delayed-retry-refused');
    expect(f?.objects).toEqual(['queue:jobs']);
  });

  it("a policy 4.3.6 refuses: an error naming the policy, the field and the broker's words", () => {
    const [f] = found(design('4.3', {}, { 'delayed-retry-type': 'all' }), 'delayed-retry-refused');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain(
      'policy retry: delayed-retry-min: RabbitMQ 4.3 refuses the policy ("Validation failed: delayed-retry-min is required when delayed-retry-type is all")',
    );
    const [g] = found(
      design('4.3', {}, { 'delayed-retry-type': 'all', 'delayed-retry-min': 1000, 'delayed-retry-max': 500 }),
      'delayed-retry-refused',
    );
    expect(g?.message).toContain('delayed-retry-max (500) must not be smaller than delayed-retry-min (1000)');
    expect(g?.objects).toEqual(['queue:jobs']);
    expect(
      found(
        design('4.3', {}, { 'delayed-retry-type': 'all', 'delayed-retry-min': 100, 'delayed-retry-max': 200 }),
        'delayed-retry-refused',
      ),
    ).toEqual([]);
  });

  it('arguments 4.3.6 accepts but does not run as written: a warning per field; none for a good configuration or another line', () => {
    const [f] = found(
      design('4.3', { 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': -1 }),
      'delayed-retry-not-as-written',
    );
    expect(f?.severity).toBe('warning');
    expect(f?.message).toMatch(
      /^queue jobs: x-delayed-retry-min -1 is not a positive integer: .*delayed retry disabled/,
    );
    expect(
      found(
        design('4.3', { 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': 100, 'x-delayed-retry-max': 1000 }),
        'delayed-retry-not-as-written',
      ),
    ).toEqual([]);
    expect(found(design('4.x', { 'x-delayed-retry-type': 'all' }), 'delayed-retry-not-as-written')).toEqual([]);
  });
});
