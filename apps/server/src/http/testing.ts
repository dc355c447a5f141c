/** Test helpers: a server on an ephemeral loopback port, JSON requests, design builders. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type {
  ConsumerSpec,
  Design,
  ExchangeDef,
  PublisherSpec,
  QueueDef,
  BindingDef,
} from '@retry-studio/topology-core/model';
import { createApp, type AppOptions } from './app.js';
import type { AppContext } from './appContext.js';

export interface TestServer {
  readonly base: string;
  readonly port: number;
  readonly app: ReturnType<typeof createApp>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startTestServer(opts: Partial<AppOptions> = {}): Promise<TestServer> {
  const app = createApp({
    port: 0,
    manifestFile: null,
    rateLimits: {
      deploy: { burst: 1000, perSecond: 1000 },
      plan: { burst: 1000, perSecond: 1000 },
      teardown: { burst: 1000, perSecond: 1000 },
      trace: { burst: 1000, perSecond: 1000 },
    },
    ...opts,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any };
  };
  return {
    base,
    port,
    app,
    post: (p, b, h) => call('POST', p, b, h),
    get: (p, h) => call('GET', p, undefined, h),
    close: async () => {
      const ctx = app.locals.ctx as AppContext;
      await Promise.all([ctx.brokers.closeAll(), ctx.heavy.close()]);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A raw HTTP request (fetch does not let us set Host). */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export function uniquePrefix(tag: string): string {
  return `rs-test.${tag}.${randomBytes(4).toString('hex')}.`;
}

export interface DesignParts {
  name?: string;
  exchanges?: ExchangeDef[];
  queues?: QueueDef[];
  bindings?: BindingDef[];
  consumers?: ConsumerSpec[];
  publishers?: PublisherSpec[];
}

export function design(p: DesignParts = {}): Design {
  return {
    format: 'retry-studio/design',
    version: 1,
    name: p.name ?? 'test design',
    topology: { exchanges: p.exchanges ?? [], queues: p.queues ?? [], bindings: p.bindings ?? [] },
    consumers: p.consumers ?? [],
    publishers: p.publishers ?? [],
  };
}

export const bindQ = (
  source: string,
  destination: string,
  routing_key = '',
  args?: BindingDef['arguments'],
): BindingDef => ({
  source,
  destination,
  destination_type: 'queue',
  routing_key,
  ...(args ? { arguments: args } : {}),
});

/** work exchange -> work queue (DLX -> retry queue with TTL -> back) -> parking: the classic retry loop. */
export function retryLoopDesign(
  name: string,
  opts: { ttl?: number; maxRetries?: number; durable?: boolean } = {},
): Design {
  const durable = opts.durable ?? true;
  return design({
    name,
    exchanges: [
      { name: 'work', type: 'direct', durable },
      { name: 'retry', type: 'direct', durable },
      { name: 'parking', type: 'fanout', durable },
    ],
    queues: [
      { name: 'work.q', durable, arguments: { 'x-dead-letter-exchange': 'retry' } },
      { name: 'retry.q', durable, arguments: { 'x-message-ttl': opts.ttl ?? 200, 'x-dead-letter-exchange': 'work' } },
      { name: 'parking.q', durable },
    ],
    bindings: [bindQ('work', 'work.q', 'job'), bindQ('retry', 'retry.q', 'job'), bindQ('parking', 'parking.q')],
    consumers: [
      {
        id: 'worker',
        queue: 'work.q',
        behaviour: {
          kind: 'worker',
          failure: { kind: 'failFirst', n: 2 },
          onFailure: [
            {
              when: {
                kind: 'lt',
                counter: { kind: 'deathCount', queue: 'work.q', reason: 'rejected' },
                value: opts.maxRetries ?? 3,
              },
              then: { kind: 'reject' },
            },
            { then: { kind: 'republish', exchange: 'parking', routingKey: 'job' } },
          ],
        },
      },
    ],
    publishers: [{ id: 'p1', exchange: 'work', routingKey: 'job', bodyPrefix: 'msg' }],
  });
}

export interface SseFrame {
  readonly event: string;
  readonly id?: string;
  readonly data: any;
  readonly comments: string[];
}

/** Reads an SSE stream until `event: end` (or the timeout), returning every frame (a batch's events as frames of their own). */
export async function readSse(
  url: string,
  opts: {
    timeoutMs?: number;
    headers?: Record<string, string>;
    onFrame?: (f: SseFrame, at: number) => void;
    keep?: boolean;
  } = {},
): Promise<{ status: number; frames: SseFrame[] }> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), opts.timeoutMs ?? 60_000);
  const res = await fetch(url, { headers: opts.headers ?? {}, signal: ac.signal });
  const frames: SseFrame[] = [];
  if (res.status !== 200 || !res.body) {
    clearTimeout(timer);
    return { status: res.status, frames };
  }
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const at = performance.timeOrigin + performance.now();
      buf += decoder.decode(chunk, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const raw = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let event = 'message';
        let id: string | undefined;
        let data = '';
        const comments: string[] = [];
        for (const line of raw.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (data === '') continue;
        // a batch (`?batch=1`) is read as the events it carries, each its own frame
        const parsed: unknown = JSON.parse(data);
        const got: SseFrame[] =
          event === 'batch' && Array.isArray(parsed)
            ? parsed.map((e: { seq?: number }) => ({
                event: 'message',
                ...(e.seq !== undefined ? { id: String(e.seq) } : {}),
                data: e,
                comments,
              }))
            : [{ event, ...(id !== undefined ? { id } : {}), data: parsed, comments }];
        if (opts.keep === false) frames.length = 0;
        for (const f of got) {
          frames.push(f);
          opts.onFrame?.(f, at);
        }
        if (event === 'end') {
          ac.abort();
          return { status: 200, frames };
        }
      }
    }
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    clearTimeout(timer);
  }
  return { status: 200, frames };
}
