/**
 * A trace whose broker goes silent on AMQP (its management API still answering): the 5 s
 * heartbeat notices the loss in two missed beats, the reconnects get no answer to their
 * handshake, and the trace ends `failed` in seconds, saying so, instead of waiting out its
 * duration with the deployment blocked. The broker is reached through a proxy that can go silent.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { retryLoopDesign, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { startSilentProxy } from '../testing/silentProxy.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { waitUntil } from '../testing/waitUntil.js';

const { srv, deploy, waitDone, onCleanup } = useLiveServer({ afterTimeoutMs: 120_000 });
const admin = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });

describe('a trace whose broker goes silent on AMQP', () => {
  it('ends failed within seconds, saying the broker stopped answering', async () => {
    const vhost = `rs-bounds-trace-silent-${randomBytes(3).toString('hex')}`;
    onCleanup(() => admin.deleteVhost(vhost));
    const proxy = await startSilentProxy(parseAmqpUrl(BROKER_310.amqpUrl).port);
    onCleanup(() => proxy.close());
    const prefix = uniquePrefix('silent');
    const d = retryLoopDesign('trace-silent', { ttl: 50, maxRetries: 1 });
    const on = {
      vhost,
      broker: `amqp://guest:guest@127.0.0.1:${proxy.port}/`,
      managementUrl: BROKER_310.managementUrl,
    };
    await deploy(d, prefix, on);
    // 1,000 at 20/s for 120 s: far from its end when the broker goes silent
    const t = await srv.post('/api/trace', {
      design: d,
      prefix,
      ...on,
      messages: 1000,
      ratePerSecond: 20,
      durationMs: 120_000,
    });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    await waitUntil(async () => (await srv.get(`/api/trace/${t.body.id}`)).body.published >= 20, '20 published', {
      timeoutMs: 20_000,
    });
    proxy.silence();
    const silentAt = Date.now();
    const summary = await waitDone(t.body.id, 90_000);
    const endedAfterS = (Date.now() - silentAt) / 1000;
    expect(summary.state, JSON.stringify(summary)).toBe('failed');
    expect(summary.endReason).toMatch(
      /connection to the broker is gone and did not come back \(2 reconnects in a row got no answer/,
    );
    // two missed heartbeats (10 s), then two handshakes of 5 s each
    expect(endedAfterS).toBeLessThan(40);
    // the deployment is free again for a trace
    const again = await srv.post('/api/trace', { design: d, prefix, ...on, broker: BROKER_310.amqpUrl, messages: 1 });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    await waitDone(again.body.id as string, 60_000);
  }, 180_000);
});
