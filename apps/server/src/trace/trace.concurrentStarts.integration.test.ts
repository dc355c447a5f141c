/**
 * Trace starts that arrive together: the cap (4 running) and one trace per deployment hold however
 * many come at once, and the trace that runs accounts for what the broker holds. Before, the
 * checks came before several awaits and the trace was registered after them: 20 simultaneous
 * starts let 16 past the cap, and three on one deployment all ran, their consumers taking each
 * other's messages, each saying `complete`, `balanced`, with 114-117 `dropped` while the broker's
 * parking queue gained exactly 1,500. Traces sharing one connection also put 3 listeners each
 * on it (MaxListenersExceededWarning past 10): each trace now has its own connection.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ManagementClient, openConnection, parseAmqpUrl, withVhost } from '../broker/index.js';
import { retryLoopDesign, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_310 } from '../testing/testBrokers.js';

const { srv, deploy, waitDone, onCleanup } = useLiveServer({ afterTimeoutMs: 180_000 });
const admin = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });
const VHOSTS = `rs-bounds-trace-starts-${randomBytes(3).toString('hex')}`;

const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
process.on('warning', onWarning);

afterAll(() => process.off('warning', onWarning));

/** the test's vhost, deleted after the file's deployments were torn down (cleanups run last registered first) */
function ownVhost(tag: string): string {
  const vhost = `${VHOSTS}-${tag}`;
  onCleanup(() => admin.deleteVhost(vhost));
  return vhost;
}

/** the broker's exact count of a queue's messages (a passive declare: the management API's is up to 5 s old) */
async function held(vhost: string, queue: string): Promise<number> {
  const conn = await openConnection(withVhost(parseAmqpUrl(BROKER_310.amqpUrl), vhost), { purpose: 'probe' });
  try {
    const ch = await conn.createChannel();
    return (await ch.checkQueue(queue)).messageCount;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** every message fails, is retried once through the TTL queue, and is parked */
const parks = (name: string) => retryLoopDesign(name, { ttl: 50, maxRetries: 1 });

async function stopAll(ids: readonly string[]): Promise<void> {
  for (const id of ids) await srv.post(`/api/trace/${id}/stop`, {});
}

describe('trace starts that arrive together', () => {
  it('20 at once over 5 deployments: exactly 4 run, each on a deployment of its own; the rest are refused saying why', async () => {
    const vhost = ownVhost('cap');
    const d = parks('starts-cap');
    const prefixes = Array.from({ length: 5 }, (_, i) => uniquePrefix(`cap${i}`));
    for (const p of prefixes) await deploy(d, p, { vhost });
    // slow traces: all of them still run when the last start is answered
    const starts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        srv.post('/api/trace', {
          design: d,
          prefix: prefixes[i % 5],
          vhost,
          messages: 100,
          ratePerSecond: 5,
          durationMs: 60_000,
        }),
      ),
    );
    const ran = starts.filter((s) => s.status === 201);
    try {
      expect(ran.length, starts.map((s) => `${s.status} ${s.body.error ?? ''}`).join('; ')).toBe(4);
      expect(new Set(ran.map((s) => s.body.target.prefix)).size).toBe(4);
      for (const s of starts.filter((x) => x.status !== 201)) {
        expect([409, 429]).toContain(s.status);
        if (s.status === 429) expect(s.body.error).toMatch(/traces are running or starting \(at most 4\)/);
        else expect(s.body.error).toMatch(/trace '[0-9a-f]{12}' is still (running|starting) on this deployment/);
      }
      // the cap holds while they run: a fifth start on the free deployment is refused
      const free = prefixes.find((p) => !ran.some((s) => s.body.target.prefix === p))!;
      const fifth = await srv.post('/api/trace', { design: d, prefix: free, vhost, messages: 1 });
      expect(fifth.status).toBe(429);
    } finally {
      await stopAll(ran.map((s) => s.body.id as string));
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  }, 180_000);

  it('3 at once on one deployment: one runs, the others get a 409 naming it; what it says parked the broker holds', async () => {
    const vhost = ownVhost('one');
    const prefix = uniquePrefix('one');
    const d = parks('starts-one');
    await deploy(d, prefix, { vhost });
    const body = { design: d, prefix, vhost, messages: 300, durationMs: 90_000 };
    const starts = await Promise.all([0, 1, 2].map(() => srv.post('/api/trace', body)));
    const ran = starts.filter((s) => s.status === 201);
    expect(ran.length, starts.map((s) => `${s.status} ${s.body.error ?? ''}`).join('; ')).toBe(1);
    const id = ran[0]!.body.id as string;
    for (const s of starts.filter((x) => x.status !== 201)) {
      expect(s.status).toBe(409);
      expect(s.body.error).toContain(`trace '${id}' is`);
      expect(s.body.runningTrace).toBe(id);
    }
    const summary = await waitDone(id, 90_000);
    expect(summary).toMatchObject({ state: 'complete', published: 300, parked: 300, dropped: 0, balanced: true });
    expect(await held(vhost, `${prefix}parking.q`)).toBe(300);
    // the deployment is free again once it ended
    const again = await srv.post('/api/trace', { ...body, messages: 1 });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    await waitDone(again.body.id as string, 60_000);
  }, 240_000);
});
