/**
 * A flood of 100,000 test messages through a live trace: publishing honours backpressure (a
 * bounded window of unconfirmed publishes, 'drain' respected), memory stays bounded (the event
 * ring and every subscriber queue are capped), and every message is accounted for.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
import { bindQ, design, readSse, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';

const { srv, deploy } = useLiveServer();

describe('flood', () => {
  it('100,000 messages: bounded memory, backpressure honoured, all acked', async () => {
    const prefix = uniquePrefix('flood');
    const d = design({
      name: 'flood',
      exchanges: [{ name: 'work', type: 'direct' }],
      queues: [{ name: 'work.q' }],
      bindings: [bindQ('work', 'work.q', 'job')],
      consumers: [{ id: 'worker', queue: 'work.q', prefetch: 500, behaviour: { kind: 'worker', onFailure: [] } }],
      publishers: [{ id: 'p', exchange: 'work', routingKey: 'job' }],
    });
    await deploy(d, prefix);
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 100);
    const N = 100_000;
    const t = await srv.post('/api/trace', { design: d, prefix, messages: N, persistent: false, durationMs: 600_000 });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    // a live subscriber reading the whole stream
    let events = 0;
    const { frames } = await readSse(srv.base + t.body.events, {
      timeoutMs: 600_000,
      keep: false,
      onFrame: () => events++,
    });
    clearInterval(sampler);
    const s = (await srv.get(`/api/trace/${t.body.id}`)).body;
    const growthMb = (peak - before) / 1e6;
    gc();
    const retainedMb = (process.memoryUsage().heapUsed - before) / 1e6;
    console.log(
      `flood: ${N} messages, ${s.events} events, stream frames ${events}, peak heap growth ${growthMb.toFixed(0)} MB, retained after the trace ${retainedMb.toFixed(0)} MB, publish`,
      s.publish,
    );
    expect(frames.at(-1)?.event).toBe('end');
    expect(s).toMatchObject({
      state: 'complete',
      published: N,
      confirmed: N,
      acked: N,
      balanced: true,
      inFlight: 0,
      parked: 0,
    });
    // backpressure: never more than the window of unconfirmed publishes, and the window did throttle
    expect(s.publish.maxInFlight).toBeLessThanOrEqual(500);
    expect(s.publish.windowWaits).toBeGreaterThan(0);
    // every event reached the subscriber (nothing dropped for a reader that keeps up)
    expect(s.events).toBeGreaterThanOrEqual(6 * N);
    // memory bounded: what stays after the trace is what matters (600,000 events would be several
    // hundred MB if they were all kept; the ring keeps 50,000). The peak also counts garbage not
    // yet collected, which varies with the machine's load (279-412 MB seen here, 717 MB on a busy
    // 2-core CI machine): a ceiling against runaway growth only; bench:trace measures the peak.
    expect(growthMb).toBeLessThan(1500);
    expect(retainedMb).toBeLessThan(60);
  }, 900_000);
});
