import { describe, expect, it } from 'vitest';
import type { Topology } from '../../model/definitions.js';
import { lintTopology } from '../lintDesign.js';
import { buildTemplate } from '../../templates/registry.js';
import { lintDesign } from '../lintDesign.js';

/** Issue 26.6: a `dlq-ttl` policy gives 7 days to every *.dlq that dead letters reach. */
function dlqs(n: number, policy = true): Topology {
  const names = Array.from({ length: n }, (_, i) => `svc${i}`);
  return {
    exchanges: [{ name: 'dlx', type: 'direct' }],
    queues: names.flatMap((s) => [
      { name: s, arguments: { 'x-dead-letter-exchange': 'dlx', 'x-dead-letter-routing-key': s } },
      { name: `${s}.dlq` },
    ]),
    bindings: names.map((s) => ({
      source: 'dlx',
      destination: `${s}.dlq`,
      destination_type: 'queue' as const,
      routing_key: s,
    })),
    ...(policy
      ? {
          policies: [
            {
              name: 'dlq-ttl',
              pattern: '\\.dlq$',
              'apply-to': 'queues' as const,
              priority: 0,
              definition: { 'message-ttl': 7 * 24 * 3600 * 1000 },
            },
          ],
        }
      : {}),
  };
}
const expire = (t: Topology) => lintTopology(t).filter((f) => f.id === 'parked-dead-letters-expire');

describe('parked-dead-letters-expire', () => {
  it('says parked dead letters are discarded after 7 d, naming the policy, one finding for every queue it covers', () => {
    const f = expire(dlqs(3));
    expect(f).toHaveLength(1);
    expect(f[0]!.objects).toEqual(['queue:svc0.dlq', 'queue:svc1.dlq', 'queue:svc2.dlq']);
    expect(f[0]!.message).toBe(
      '3 queues hold dead letters (svc0.dlq, svc1.dlq, svc2.dlq) and policy dlq-ttl gives them a TTL of 7 d with no dead-letter exchange: parked dead letters are discarded after 7 d, unseen.',
    );
  });

  it('one queue: names who sends the dead letters', () =>
    expect(expire(dlqs(1))[0]!.message).toMatch(
      /^svc0\.dlq holds dead letters \(from svc0\) and policy dlq-ttl gives it a TTL of 7 d/,
    ));

  it('not without the TTL, nor for a wait queue (it dead-letters onward)', () => {
    expect(expire(dlqs(2, false))).toEqual([]);
    const r = buildTemplate('dlx-ttl-wait-queue');
    expect(r.ok && lintDesign(r.template.design).map((x) => x.id)).not.toContain('parked-dead-letters-expire');
  });
});
