import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';
import { radlxDeadSource } from './radlx.js';

// ../../../../../shared/reference/radlx-semantics.md points 2-7
const death = (queue: string, reason: 'rejected' | 'expired', count: number) => ({
  queue,
  reason,
  count,
  exchange: '',
  'routing-keys': ['k'],
});

describe('radlx', () => {
  it('point 2-3: dead only for an integer max > 0, a track queue, and count % max == 0', () => {
    const h = { 'radlx-max-per-cycle': 2, 'radlx-track-queue': 'work' };
    expect(radlxDeadSource(h, [death('work', 'rejected', 2)])).toBe('work');
    expect(radlxDeadSource(h, [death('work', 'rejected', 1)])).toBeUndefined();
    expect(radlxDeadSource(h, [death('work', 'rejected', 4)])).toBe('work');
    expect(radlxDeadSource({ ...h, 'radlx-max-per-cycle': -1 }, [death('work', 'rejected', 2)])).toBeUndefined();
    expect(radlxDeadSource({ 'radlx-max-per-cycle': 2 }, [death('work', 'rejected', 2)])).toBeUndefined();
    // unknown reason counts as rejected; expired must be asked for
    expect(radlxDeadSource({ ...h, 'radlx-track-reason': 'bogus' }, [death('work', 'rejected', 2)])).toBe('work');
    expect(radlxDeadSource({ ...h, 'radlx-track-reason': 'expired' }, [death('work', 'rejected', 2)])).toBeUndefined();
    expect(radlxDeadSource({ ...h, 'radlx-track-reason': 'expired' }, [death('work', 'expired', 2)])).toBe('work');
  });

  const topo = T.topology(
    T.exchange('r', 'radlx'),
    T.queue('work', { dlx: 'r' }),
    T.queue('retry', { ttl: 10, dlx: '', dlrk: 'work' }),
    T.queue('parking'),
    T.bind('r', 'retry', '#'),
    T.bind('r', 'parking', '', { 'x-match': 'all', 'radlx.dead.source': 'work' }),
  );
  const headers = { 'radlx-max-per-cycle': 2, 'radlx-track-queue': 'work' };

  it('points 4-7: topic routing until count % max == 0, then the header binding parks it; the header is not written', () => {
    const r = run({
      topology: topo,
      consumers: [C.script('work', A.reject)],
      steps: [S.publish('', 'work', 'm', { headers })],
    });
    expect(r.delivered('work')).toEqual(['m', 'm']);
    expect(r.left('parking')).toEqual(['m']);
    expect(r.observed.final['parking']?.[0]?.headers?.['radlx.dead.source']).toBeUndefined();
    expect(r.observed.final['parking']?.[0]?.['x-death']?.find((d) => d.queue === 'work')?.count).toBe(2);
  });

  it('point 4: no header binding matches -> falls back to topic routing', () => {
    const t2 = T.topology(
      T.exchange('r', 'radlx'),
      T.queue('work', { dlx: 'r' }),
      T.queue('retry'),
      T.queue('parking'),
      T.bind('r', 'retry', '#'),
      T.bind('r', 'parking', '', { 'x-match': 'all', 'radlx.dead.source': 'elsewhere' }),
    );
    const r = run({
      topology: t2,
      consumers: [C.script('work', A.reject)],
      steps: [S.publish('', 'work', 'm', { headers: { 'radlx-max-per-cycle': 1, 'radlx-track-queue': 'work' } })],
    });
    expect(r.left('retry')).toEqual(['m']);
    expect(r.left('parking')).toEqual([]);
  });
});
