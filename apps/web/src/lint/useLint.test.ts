import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { lintOf } from './useLint';

const design = () => {
  const r = buildTemplate('quorum-delivery-limit');
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.template.design;
};
const clusterRule = (nodes?: number) =>
  lintOf(design(), nodes).findings.filter((f) => f.rule === 'classic-queue-in-cluster');

describe('lintOf with the probed cluster size', () => {
  it('runs the cluster rule only once a multi-node broker was probed', () => {
    expect(clusterRule()).toEqual([]);
    expect(clusterRule(1)).toEqual([]);
    expect(clusterRule(3)).toEqual([expect.objectContaining({ severity: 'warning', nodes: ['queue:jobs.dead'] })]);
  });
});

describe('invalid values are findings named by their object', () => {
  it('a stored negative TTL is an error on wait.q, listed first and marked on its node; fixed, it is gone', async () => {
    const { invalidFindings, lintOf, withInvalid } = await import('./useLint');
    const { dlxTtlRetry } = await import('../fixtures/designs');
    const d = dlxTtlRetry({ ttl: -5 });
    const view = withInvalid(lintOf(d), invalidFindings(d));
    expect(view.findings[0]).toMatchObject({ rule: 'ttl-range', severity: 'error', nodes: ['queue:wait.q'] });
    expect(view.findings[0]!.message).toMatch(/^wait\.q: x-message-ttl must be/);
    expect(view.byNode.get('queue:wait.q')?.severity).toBe('error');
    expect(invalidFindings(dlxTtlRetry({ ttl: 5 }))).toEqual([]);
  });
});
