import { describe, expect, it } from 'vitest';
import { T } from '../../../testing/builders.js';
import { lintTopology } from '../lintDesign.js';

// a work queue rejects into a DLQ with x-max-length 2 and x-overflow reject-publish: what the brokers did (overflowDropsSilently.ts)
const dlq = (quorum: boolean) =>
  T.topology(
    T.exchange('dlx', 'fanout'),
    T.queue('work', { dlx: 'dlx' }),
    T.queue('dlq', { quorum, maxLength: 2, overflow: 'reject-publish' }),
    T.bind('dlx', 'dlq'),
  );
const said = (quorum: boolean) => lintTopology(dlq(quorum)).find((f) => f.id === 'overflow-drops-silently')?.message;

describe('overflow-drops-silently: dead letters into a full queue, as the brokers do it', () => {
  it('a full quorum DLQ takes dead letters past its limit (3.10.8 and 4.3.6 held 5 over max-length 2)', () => {
    expect(said(true)).toContain('dead letters into it are still taken, past the limit');
    expect(said(true)).not.toContain('are dropped');
  });
  it('a full classic DLQ drops them (both brokers kept 2 of 5)', () => {
    expect(said(false)).toContain('dead letters into it are dropped');
  });
});
