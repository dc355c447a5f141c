import { describe, expect, it } from 'vitest';
import { lintDesign } from '../lintDesign.js';
import { T } from '../../../testing/builders.js';
import { designOf } from '../../../testing/upgradeFixtures.js';

const ttlFindings = (ttl: number) =>
  lintDesign(
    designOf(
      't',
      T.topology(
        T.exchange('events', 'topic'),
        T.queue('file_events', { ttl }),
        T.bind('events', 'file_events', 'file.new'),
      ),
    ),
    { profile: '4.3' },
  ).filter((f) => f.id === 'ttl-queue-without-exit');

describe('ttl-queue-without-exit', () => {
  it('says the TTL as simulate says it, with the argument beside it (tracktion: 24 h work queues without a DLX)', () => {
    const [f] = ttlFindings(86_400_000);
    expect(f?.message).toContain(
      'file_events expires messages after 24 h (x-message-ttl 86400000) and has no dead-letter exchange',
    );
    expect(f?.objects).toEqual(['queue:file_events']);
    expect(ttlFindings(500)[0]?.message).toContain('after 500 ms and');
  });
});
