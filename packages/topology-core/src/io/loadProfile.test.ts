import { describe, expect, it } from 'vitest';
import { exportDefinitions } from './definitions.js';
import { loadValue } from './load.js';
import type { Topology } from '../model/definitions.js';

const topology: Topology = {
  exchanges: [{ name: 'work', type: 'direct' }],
  queues: [{ name: 'work.q', arguments: { 'x-queue-type': 'quorum', 'x-delivery-limit': 3 } }],
  bindings: [{ source: 'work', destination: 'work.q', destination_type: 'queue', routing_key: 'job' }],
};
const exported = (rabbitVersion: string) => exportDefinitions(topology, { rabbitVersion });

describe('importing definitions: the profile follows the broker the file came from', () => {
  it('4.3.x sets the 4.3 profile, other 4.x the 4.x profile, 3.x keeps the default', () => {
    const profile = (v: string) => {
      const r = loadValue(exported(v));
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.design.profile;
    };
    expect(profile('4.3.6')).toBe('4.3');
    expect(profile('4.0.5')).toBe('4.x');
    expect(profile('3.10.8')).toBeUndefined();
  });
});
