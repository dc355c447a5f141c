/**
 * `plugin-required` for a policy key a plugin defines (federation): the import drops the key (the
 * tool does not model federation), so the refusal is said from what the reader dropped. Both test
 * brokers, without the federation plugin, refused neicnordic's federation file (corpus/README.md).
 */
import { describe, expect, it } from 'vitest';
import { importDefinitions, designFromTopology } from '../../io/definitions.js';
import { lintDesign } from '../lintDesign.js';

const file = {
  vhosts: [{ name: 'sda' }],
  queues: [{ name: 'from_cega', vhost: 'sda', durable: true, auto_delete: false, arguments: {} }],
  policies: [
    {
      vhost: 'sda',
      name: 'from_cega',
      pattern: 'from_cega',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'federation-upstream': 'from_cega' },
    },
  ],
};

describe('plugin-required: a federation policy key', () => {
  const r = importDefinitions(file);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const design = designFromTopology(r.topology, 'fed');
  const found = (plugins?: readonly string[]) =>
    lintDesign(design, { pluginPolicyKeys: r.pluginPolicyKeys, ...(plugins ? { plugins } : {}) }).filter(
      (f) => f.id === 'plugin-required',
    );

  it('the reader says which key it dropped and the plugin it needs', () => {
    expect(r.topology.policies ?? []).toEqual([]);
    expect(r.pluginPolicyKeys).toEqual([
      { policy: 'from_cega', key: 'federation-upstream', plugin: 'rabbitmq_federation' },
    ]);
  });

  it('a warning while the target is not known, an error for one without the plugin, a note for one with it', () => {
    expect(found().map((f) => f.severity)).toEqual(['warning']);
    expect(found([]).map((f) => f.severity)).toEqual(['error']);
    expect(found(['rabbitmq_federation']).map((f) => f.severity)).toEqual(['info']);
    expect(found()[0]!.message).toContain(
      'refuses the whole definitions import with 400 "are not recognised policy settings"',
    );
  });

  it('a design without dropped keys has no such finding', () => {
    expect(lintDesign(design).some((f) => f.id === 'plugin-required')).toBe(false);
  });
});
