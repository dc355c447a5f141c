/**
 * One channel per purpose: five traces in a row on one server leave no channel open on their
 * connections (each trace has its own, `retry-studio:trace:<id>`; the test publisher and each
 * worker's republish channel are opened once and shared by their concurrent publishes), and each
 * trace published what it was asked. Before,
 * 50 concurrent publishes opened 49 channels that were never closed, and after a few traces the
 * connection hit the broker's channel limit.
 */
import { describe, expect, it } from 'vitest';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { retryLoopDesign, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_310 } from '../testing/testBrokers.js';

// each trace's connection stays open after it (idle) long enough to be looked at
const { deploy, runTrace } = useLiveServer({ app: { idleCloseMs: 120_000 } });
const mgmt = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });

/** the channels the broker holds open on this server's trace connections to `vhost` */
async function traceChannels(vhost: string): Promise<{ connections: number; channels: number }> {
  const conns = (await mgmt.listConnections()).filter(
    (c) => c.vhost === vhost && String(c.client_properties?.connection_name ?? '').startsWith('retry-studio:trace:'),
  );
  let channels = 0;
  for (const c of conns) channels += (await mgmt.channelsOf(c.name)).length;
  return { connections: conns.length, channels };
}

describe('live trace channels', () => {
  it('five traces of 50 messages: each publishes 50, and no channel is left open on their connections', async () => {
    const vhost = `rs-channels-${Date.now().toString(36)}`;
    const prefix = uniquePrefix('chan');
    const base = retryLoopDesign('trace-channels', { ttl: 50, maxRetries: 1 });
    // prefetch 50: the worker's republishes to parking run concurrently too
    const d = { ...base, consumers: base.consumers.map((c) => ({ ...c, prefetch: 50 })) };
    await deploy(d, prefix, { vhost });
    for (let i = 1; i <= 5; i++) {
      const { summary } = await runTrace({ design: d, prefix, vhost, messages: 50, durationMs: 60_000 });
      expect(summary, `trace ${i}`).toMatchObject({
        state: 'complete',
        published: 50,
        confirmed: 50,
        parked: 50,
        balanced: true,
      });
    }
    // the management API learns of a channel within its stats interval (5 s): wait past it
    // (and lists a new connection within it too)
    let seen = await traceChannels(vhost);
    for (let t = 0; t < 15 && (seen.channels > 0 || seen.connections === 0); t++) {
      await new Promise((r) => setTimeout(r, 1000));
      seen = await traceChannels(vhost);
    }
    expect(seen.connections).toBeGreaterThanOrEqual(1);
    expect(seen.channels).toBe(0);
  }, 240_000);
});
