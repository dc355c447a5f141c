import { describe, expect, it } from 'vitest';
import { T } from '../../../testing/builders.js';
import { lintTopology } from '../lintDesign.js';

/** an ha-all policy at priority 0 beside higher-priority policies that cover every queue (the issue-38 export's shape) */
const outranked = (extra: ReturnType<typeof T.queue>[] = []) =>
  T.topology(
    T.queue('orders'),
    T.queue('orders.dlq'),
    T.queue('billing'),
    ...extra,
    T.policy('ha-all', '.*', { 'ha-mode': 'all' }, 0),
    T.policy('dlx', '^(orders|billing)$', { 'dead-letter-exchange': 'dead' }, 10),
    T.policy('dlq-ttl', '\\.dlq$', { 'message-ttl': 604800000 }, 5),
    T.policy('for-apps', '^invoices', { 'max-length': 5 }, 0),
  );

describe('policy-never-applies', () => {
  it('names a policy outranked on every object it matches, and what outranks it', () => {
    const f = lintTopology(outranked()).filter((x) => x.id === 'policy-never-applies');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toBe(
      'policy ha-all (priority 0) matches orders, orders.dlq, billing but applies to none of them: dlx (priority 10, on 2), dlq-ttl (priority 5, on 1) outranks it, so its ha-mode does nothing.',
    );
    expect(f[0]!.objects).toEqual(['queue:orders', 'queue:orders.dlq', 'queue:billing']);
  });
  it('a policy that wins somewhere, or matches nothing in the file (queues the apps declare), is not named', () => {
    const f = lintTopology(outranked([T.queue('events')])).filter((x) => x.id === 'policy-never-applies');
    expect(f).toEqual([]);
  });
  it('lint --profile 4.3 names no queue for the refused ha-all that applies to none (it listed every queue it matched)', () => {
    const refused = lintTopology(outranked(), { profile: '4.3' }).filter((x) => x.id === 'policy-key-refused');
    expect(refused.map((x) => [x.message.slice(0, 20), x.objects])).toEqual([['policy ha-all sets h', []]]);
    const winsOnEvents = lintTopology(outranked([T.queue('events')]), { profile: '4.3' }).find(
      (x) => x.id === 'policy-key-refused',
    );
    expect(winsOnEvents?.objects).toEqual(['queue:events']);
  });
});
