import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core';
import { lintOf } from './useLint';

const design = () => {
  const r = buildTemplate('quorum-delivery-limit');
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.template.design;
};
const clusterRule = (nodes?: number) => lintOf(design(), nodes).findings.filter((f) => f.rule === 'classic-queue-in-cluster');

describe('lintOf with the probed cluster size', () => {
  it('runs the cluster rule only once a multi-node broker was probed', () => {
    expect(clusterRule()).toEqual([]);
    expect(clusterRule(1)).toEqual([]);
    expect(clusterRule(3)).toEqual([expect.objectContaining({ severity: 'warning', nodes: ['queue:jobs.dead'] })]);
  });
});
