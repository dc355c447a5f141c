/**
 * The traces this server runs and keeps, and the two rules a start must pass: at most `maxRunning`
 * at once, and one per deployment (broker, vhost, prefix). Both are checked and taken in one
 * synchronous step, so starts that arrive together cannot all pass them while each awaits the
 * broker (20 simultaneous starts let 16 past the cap of 4; three on one deployment all ran, their
 * consumers took each other's messages, and each said `dropped` for what the broker had parked).
 *
 * A start takes a slot (`reserve`) before its first await, names its deployment (`claim`) as soon
 * as it knows it, again with no await between the check and the taking, and then either becomes
 * the running trace (`register`) or gives the slot back (`release`, whatever failed). A trace in
 * its start counts as running for both rules; the second start on a deployment is refused with a
 * 409 naming the trace there: one deployment's consumers would compete for each other's messages,
 * so two traces on it cannot each account for their own.
 */
import { randomBytes } from 'node:crypto';
import { HttpError } from './httpError.js';

/** what the registry needs of a trace */
export interface RegisteredTrace {
  readonly traceId: string;
  readonly isRunning: boolean;
}

/** where a trace runs: the broker (redacted URL), vhost and name prefix */
export interface Deployment {
  readonly broker: string;
  readonly vhost: string;
  readonly prefix: string;
}

/** a start's place in the registry, from before its first await until it runs or fails */
export interface TraceReservation<T extends RegisteredTrace = RegisteredTrace> {
  /** the id the trace will have (a 409 names a trace still starting by it) */
  readonly traceId: string;
  /** takes the deployment (409 when a trace runs or starts there) */
  claim(deployment: Deployment): void;
  /** the trace runs: it takes the reservation's place */
  register(trace: T): void;
  /** the start failed: its slot and deployment are free again (idempotent; nothing after register) */
  release(): void;
}

export interface TraceLimits {
  /** traces running (or starting) at once */
  readonly maxRunning: number;
  /** finished traces kept for their summary, events and comparison (the oldest are forgotten) */
  readonly maxKept: number;
}

export const DEFAULT_TRACE_LIMITS: TraceLimits = { maxRunning: 4, maxKept: 20 };

const keyOf = (d: Deployment): string => JSON.stringify([d.broker, d.vhost, d.prefix]);

export class TraceRegistry<T extends RegisteredTrace> {
  private readonly traces = new Map<string, T>();
  /** deployment key of every running trace (by id) */
  private readonly deploymentOf = new Map<string, string>();
  /** starts under way: id -> their deployment once claimed */
  private readonly starting = new Map<string, string | undefined>();

  constructor(readonly limits: TraceLimits = DEFAULT_TRACE_LIMITS) {}

  get(id: string): T | undefined {
    return this.traces.get(id);
  }

  values(): IterableIterator<T> {
    return this.traces.values();
  }

  /** traces running now, and starts under way */
  running(): number {
    let n = this.starting.size;
    for (const t of this.traces.values()) if (t.isRunning) n += 1;
    return n;
  }

  /** A slot under the cap, taken at once (429 when every slot is taken). Call before the first await. */
  reserve(): TraceReservation<T> {
    const running = this.running();
    if (running >= this.limits.maxRunning)
      throw new HttpError(
        429,
        `${running} traces are running or starting (at most ${this.limits.maxRunning}); stop one first`,
      );
    const traceId = randomBytes(6).toString('hex');
    this.starting.set(traceId, undefined);
    let open = true;
    return {
      traceId,
      claim: (deployment) => {
        if (!open) throw new Error(`trace '${traceId}' is no longer starting`);
        const key = keyOf(deployment);
        const holder = this.holderOf(key);
        if (holder)
          throw new HttpError(
            409,
            `trace '${holder.id}' is still ${holder.how} on this deployment (vhost '${deployment.vhost}', prefix '${deployment.prefix}'): its consumers would compete with this one's for the messages; stop it first`,
            'design',
            { runningTrace: holder.id },
          );
        this.starting.set(traceId, key);
      },
      register: (trace) => {
        if (!open) throw new Error(`trace '${traceId}' is no longer starting`);
        if (trace.traceId !== traceId) throw new Error(`trace '${trace.traceId}' registered under '${traceId}'`);
        open = false;
        const key = this.starting.get(traceId);
        this.starting.delete(traceId);
        this.traces.set(traceId, trace);
        if (key !== undefined) this.deploymentOf.set(traceId, key);
        this.forgetOldest();
      },
      release: () => {
        if (!open) return;
        open = false;
        this.starting.delete(traceId);
      },
    };
  }

  /** Forgets a trace that failed to start after it was registered. */
  delete(id: string): void {
    this.traces.delete(id);
    this.deploymentOf.delete(id);
  }

  /** the trace running or starting on this deployment */
  private holderOf(key: string): { id: string; how: 'running' | 'starting' } | undefined {
    for (const [id, k] of this.starting) if (k === key) return { id, how: 'starting' };
    for (const [id, k] of this.deploymentOf) {
      if (k !== key) continue;
      if (this.traces.get(id)?.isRunning) return { id, how: 'running' };
      this.deploymentOf.delete(id); // it ended: the deployment is free
    }
    return undefined;
  }

  /** keeps at most maxKept traces: the oldest finished ones go first */
  private forgetOldest(): void {
    if (this.traces.size <= this.limits.maxKept) return;
    for (const [id, t] of this.traces) {
      if (this.traces.size <= this.limits.maxKept) break;
      if (!t.isRunning) this.delete(id);
    }
  }
}
