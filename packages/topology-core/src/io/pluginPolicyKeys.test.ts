import { describe, expect, it } from 'vitest';
import { importDefinitions } from './definitions.js';

describe('plugin policy keys in a broker export', () => {
  it('drops a federation key with a note naming the policy, keeps the rest, and never refuses the file', () => {
    const r = importDefinitions({
      queues: [{ name: 'q', vhost: '/', durable: true, arguments: {} }],
      policies: [
        {
          vhost: '/',
          name: 'fed-only',
          pattern: '^fed',
          'apply-to': 'exchanges',
          priority: 0,
          definition: { 'federation-upstream-set': 'all' },
        },
        {
          vhost: '/',
          name: 'mixed',
          pattern: '^q$',
          'apply-to': 'queues',
          priority: 0,
          definition: { 'federation-upstream': 'up', 'message-ttl': 5000 },
        },
      ],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.topology.policies).toEqual([
      expect.objectContaining({ name: 'mixed', definition: { 'message-ttl': 5000 } }),
    ]);
    const notes = r.warnings.filter((w) => w.code === 'not-imported' && w.path.startsWith('policies['));
    expect(notes.map((n) => n.path)).toEqual(['policies[0].definition', 'policies[1].definition']);
    expect(notes[0]!.message).toContain(
      'policy "fed-only": federation-upstream-set (federation plugin) not modelled; the policy has nothing else, so it is not imported',
    );
    // what both test brokers (no federation plugin) answered to the neicnordic federation file (corpus/README.md)
    expect(notes[0]!.message).toContain('A broker without the plugin refuses the whole import with 400');
  });
});
