/**
 * Fixture for integration test files that drive the HTTP API against the real broker: one test
 * server per file, deployments made through the API and torn down after the file's tests, and
 * the live-trace round trip (start, wait for the summary, read the events).
 * Call `useLiveServer()` at the top level of a test file: it registers beforeAll/afterAll.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import type { AppOptions } from '../http/app.js';
import { readSse, startTestServer, type SseFrame, type TestServer } from '../http/testing.js';
import { BROKER_310, type TestBroker } from './testBrokers.js';

/** The broker the integration tests use by default. */
export const TEST_AMQP_URL = BROKER_310.amqpUrl;

/** The routes whose bodies name a broker (`broker`), the probe's included. */
const BROKER_ROUTES = new Set(['/api/plan', '/api/deploy', '/api/teardown', '/api/trace', '/api/broker']);

/**
 * Points a request at `broker` unless it names one itself: `broker` in the body of probe, plan,
 * deploy, teardown and trace. The management API is left to the server to
 * discover (unless `managementUrl` is given), as a user's request would.
 */
export function aimAt(broker: TestBroker, path: string, body?: unknown): { path: string; body?: unknown } {
  const plain = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (BROKER_ROUTES.has(path) && plain && !('broker' in body))
    return { path, body: { ...body, broker: broker.amqpUrl } };
  return { path, body };
}

export interface LiveServerOptions {
  /** the broker every request goes to (default: the 3.10 broker); see `aimAt` */
  readonly broker?: TestBroker;
  readonly app?: Partial<AppOptions>;
  /** before the server starts (e.g. wait for the broker) */
  readonly before?: () => Promise<void>;
  /** after the file's tests, before the cleanups (e.g. make sure the broker runs again) */
  readonly after?: () => Promise<void>;
  readonly afterTimeoutMs?: number;
}

export interface TraceRun {
  readonly id: string;
  /** the trace's final summary (GET /api/trace/:id once it stopped running) */
  readonly summary: any;
  /** the stream's events in the simulator vocabulary */
  readonly events: SimEvent[];
}

export interface LiveServer {
  /** the file's test server (started in beforeAll; calls before that throw) */
  readonly srv: TestServer;
  /** runs after the file's tests, the last registered first; failures are ignored */
  onCleanup(f: () => Promise<unknown>): void;
  /** deploys through the API (which must answer 200) and tears the deployment down after the file's tests; `on`: the broker fields (broker, managementUrl) */
  deploy(d: Design, prefix: string, on?: Record<string, unknown>): Promise<void>;
  /** polls a trace until it stops running (or `ms` pass) and returns its summary */
  waitDone(id: string, ms?: number): Promise<any>;
  /** starts a trace (which must answer 201), waits for it to finish and reads its stream */
  runTrace(body: Record<string, unknown>, sseTimeoutMs?: number): Promise<TraceRun>;
}

/** The `message` frames of a trace stream as SimEvents. */
export const simEvents = (frames: readonly SseFrame[]): SimEvent[] =>
  frames.filter((f) => f.event === 'message').map((f) => f.data as SimEvent);

/** how long one cleanup may take: one that hangs is reported and skipped, not the file's failure */
const CLEANUP_WAIT_MS = 15_000;

async function boundedCleanup(f: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), CLEANUP_WAIT_MS)));
  const ended = await Promise.race([
    f().then(
      () => 'done',
      () => 'done',
    ),
    late,
  ]);
  clearTimeout(timer);
  if (ended === 'late') console.warn(`a cleanup did not end within ${CLEANUP_WAIT_MS} ms: ${String(f).slice(0, 160)}`);
}

export function useLiveServer(opts: LiveServerOptions = {}): LiveServer {
  let server: TestServer | undefined;
  const broker = opts.broker;
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    await opts.before?.();
    server = await startTestServer(opts.app);
  });
  afterAll(async () => {
    await opts.after?.();
    for (const f of cleanups.reverse()) await boundedCleanup(f);
    await server?.close();
  }, opts.afterTimeoutMs);

  const started = (): TestServer => {
    if (!server) throw new Error('the test server starts in beforeAll');
    return server;
  };
  // usable from the top level of the file: every call goes to the server started in beforeAll
  const srv: TestServer = {
    get base() {
      return started().base;
    },
    get port() {
      return started().port;
    },
    get app() {
      return started().app;
    },
    post: (p, b, h) => {
      const a = broker ? aimAt(broker, p, b) : { path: p, body: b };
      return started().post(a.path, a.body, h);
    },
    get: (p, h) => started().get(broker ? aimAt(broker, p).path : p, h),
    close: () => started().close(),
  };
  const live: LiveServer = {
    srv,
    onCleanup(f) {
      cleanups.push(f);
    },
    async deploy(d, prefix, on = {}) {
      const r = await srv.post('/api/deploy', { design: d, prefix, ...on });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      live.onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix, ...on, force: true }));
    },
    async waitDone(id, ms = 30_000) {
      const until = Date.now() + ms;
      for (;;) {
        const s = await srv.get(`/api/trace/${id}`);
        if (s.body.state !== 'running' || Date.now() > until) return s.body;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    // an ended trace's stream replays and closes at once: the timeout is only a bound for a loaded machine
    async runTrace(body, sseTimeoutMs = 20_000) {
      const t = await srv.post('/api/trace', body);
      expect(t.status, JSON.stringify(t.body)).toBe(201);
      const summary = await live.waitDone(t.body.id);
      const { frames } = await readSse(srv.base + t.body.events, { timeoutMs: sseTimeoutMs });
      return { id: t.body.id as string, summary, events: simEvents(frames) };
    },
  };
  return live;
}
