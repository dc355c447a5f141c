import { describe, expect, it } from 'vitest';
import { HttpError } from './httpError.js';
import { TraceRegistry, type Deployment, type RegisteredTrace } from './traceRegistry.js';

const trace = (traceId: string): RegisteredTrace & { isRunning: boolean } => ({ traceId, isRunning: true });
const at = (prefix: string, vhost = '/'): Deployment => ({ broker: 'amqp://127.0.0.1:5672', vhost, prefix });

function refusal(f: () => unknown): HttpError {
  try {
    f();
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('TraceRegistry', () => {
  it('counts a start under way against the cap: the fifth of five reservations is refused with 429', () => {
    const r = new TraceRegistry({ maxRunning: 4, maxKept: 20 });
    for (let i = 0; i < 4; i++) r.reserve();
    const e = refusal(() => r.reserve());
    expect(e.status).toBe(429);
    expect(e.message).toMatch(/4 traces are running or starting \(at most 4\)/);
  });

  it('frees the slot of a start that failed, and of a trace that ended', () => {
    const r = new TraceRegistry<ReturnType<typeof trace>>({ maxRunning: 1, maxKept: 20 });
    r.reserve().release();
    const s = r.reserve();
    const t = trace(s.traceId);
    s.register(t);
    expect(() => r.reserve()).toThrow(HttpError);
    t.isRunning = false;
    expect(() => r.reserve()).not.toThrow();
  });

  it('refuses a second start on one deployment with a 409 naming the trace there, starting or running', () => {
    const r = new TraceRegistry<ReturnType<typeof trace>>();
    const a = r.reserve();
    a.claim(at('p.'));
    const b = r.reserve();
    const starting = refusal(() => b.claim(at('p.')));
    expect(starting.status).toBe(409);
    expect(starting.message).toContain(`trace '${a.traceId}' is still starting on this deployment`);
    expect(starting.details).toEqual({ runningTrace: a.traceId });
    const t = trace(a.traceId);
    a.register(t);
    expect(refusal(() => b.claim(at('p.'))).message).toContain(`trace '${a.traceId}' is still running`);
    // another prefix or vhost is another deployment
    b.claim(at('q.'));
    r.reserve().claim(at('p.', 'other'));
    // once the trace ended, its deployment is free
    t.isRunning = false;
    r.reserve().claim(at('p.'));
  });

  it('a released start frees its deployment; release after register changes nothing', () => {
    const r = new TraceRegistry<ReturnType<typeof trace>>();
    const a = r.reserve();
    a.claim(at('p.'));
    a.release();
    const b = r.reserve();
    b.claim(at('p.'));
    b.register(trace(b.traceId));
    b.release();
    expect(r.get(b.traceId)?.isRunning).toBe(true);
    expect(() => r.reserve().claim(at('p.'))).toThrow(/is still running on this deployment/);
  });

  it('keeps at most maxKept traces, forgetting the oldest finished ones', () => {
    const r = new TraceRegistry<ReturnType<typeof trace>>({ maxRunning: 10, maxKept: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = r.reserve();
      const t = trace(s.traceId);
      s.register(t);
      t.isRunning = i === 2;
      ids.push(s.traceId);
    }
    expect(r.get(ids[0]!)).toBeUndefined();
    expect(r.get(ids[1]!)).toBeDefined();
    expect(r.get(ids[2]!)).toBeDefined();
  });
});
