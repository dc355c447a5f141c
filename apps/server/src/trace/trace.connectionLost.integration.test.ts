/**
 * A trace whose connection is lost for good (the reconnect is refused: the user's password was
 * changed) does not end `complete` and `balanced`: it ends `failed`, with the reason, and
 * publishes no more than it could. Before, it said `complete`, `balanced: true` with 65 of 200
 * messages published; then `failed`, but only when its duration ran out (59 s later, its
 * deployment blocked meanwhile). Now within seconds of the refused reconnects.
 */
import { describe, expect, it } from 'vitest';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { retryLoopDesign, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { waitUntil } from '../testing/waitUntil.js';

const { srv, deploy, onCleanup, waitDone } = useLiveServer();
const admin = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });
const auth = {
  authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64'),
  'content-type': 'application/json',
};

async function putUser(user: string, password: string): Promise<void> {
  const r = await fetch(`${BROKER_310.managementUrl}/api/users/${encodeURIComponent(user)}`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ password, tags: 'administrator' }),
  });
  expect(r.ok, `PUT user: ${r.status}`).toBe(true);
}

describe('a trace that loses its connection for good', () => {
  it('ends failed with the reason, not complete and balanced', async () => {
    const vhost = `rs-lost-${Date.now().toString(36)}`;
    const prefix = uniquePrefix('lost');
    const d = retryLoopDesign('trace-lost', { ttl: 50, maxRetries: 1 });
    // the vhost goes last (cleanups run the last registered first): the teardown needs it
    onCleanup(() => admin.deleteVhost(vhost));
    await deploy(d, prefix, { vhost });
    const user = `rs-trace-lost-${process.pid}-${Date.now().toString(36)}`;
    await putUser(user, 'first-pw');
    onCleanup(() =>
      fetch(`${BROKER_310.managementUrl}/api/users/${encodeURIComponent(user)}`, { method: 'DELETE', headers: auth }),
    );
    const perm = await fetch(
      `${BROKER_310.managementUrl}/api/permissions/${encodeURIComponent(vhost)}/${encodeURIComponent(user)}`,
      {
        method: 'PUT',
        headers: auth,
        body: JSON.stringify({ configure: '.*', write: '.*', read: '.*' }),
      },
    );
    expect(perm.ok).toBe(true);
    // the management API's identity check logs in on '/': access, nothing more
    await fetch(`${BROKER_310.managementUrl}/api/permissions/%2F/${encodeURIComponent(user)}`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ configure: '^$', write: '^$', read: '^$' }),
    });

    // 1,000 at 20/s, for 120 s: still publishing, and the trace far from its end, however long the
    // management API takes to list the connection below (up to 30 s)
    const t = await srv.post('/api/trace', {
      design: d,
      prefix,
      vhost,
      broker: `amqp://${user}:first-pw@127.0.0.1:5672/`,
      messages: 1000,
      ratePerSecond: 20,
      durationMs: 120_000,
    });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    await waitUntil(
      async () => (await srv.get(`/api/trace/${t.body.id}`)).body.published >= 20,
      '20 messages published',
      { timeoutMs: 20_000 },
    );
    // the password changes, and the broker closes the trace's connection: every reconnect is refused
    await putUser(user, 'changed-pw');
    // (the management API lists a new connection within its stats interval)
    let closed = 0;
    let closedAt = 0;
    await waitUntil(
      async () => {
        for (const c of await admin.listConnections()) {
          if (c.user !== user || c.client_properties?.connection_name !== `retry-studio:trace:${t.body.id}`) continue;
          await admin.closeConnection(c.name);
          closedAt = Date.now();
          closed += 1;
        }
        return closed > 0;
      },
      "the trace's connection listed by the management API",
      { timeoutMs: 30_000, everyMs: 200 },
    );

    const summary = await waitDone(t.body.id, 90_000);
    const endedAfterMs = Date.now() - closedAt;
    expect(summary.state).toBe('failed');
    // two refused reconnects (about a second of backoff), then the trace's own stop
    expect(endedAfterMs, `ended ${endedAfterMs} ms after its connection was closed`).toBeLessThan(15_000);
    expect(summary.asked).toBe(1000);
    expect(summary.published).toBeLessThan(1000);
    expect(summary.balanced).toBe(false);
    expect(summary.endReason).toMatch(
      /connection to the broker is gone and did not come back \(2 reconnects in a row were refused: login refused/,
    );
    expect(summary.endReason).toContain(`published ${summary.published} of 1000`);
  }, 150_000);
});
