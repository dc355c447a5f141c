/**
 * What a trace does when its deployment changes under it: a consumer the broker cancelled (its
 * queue deleted, or its node down), a queue unavailable or reachable again, a queue gone, a change
 * the topology watch saw. A queue whose node is down is waited for (its messages are not counted
 * dropped); a queue gone takes its messages with it, and the trace ends with the reason.
 */
import type { ManagedConnection, ManagementClient } from '../broker/index.js';
import type { Lane, TraceAccounting } from './accounting.js';
import type { EventLog } from './eventLog.js';
import type { QueueAvailability } from './queueAvailability.js';
import type { EventInput } from './traceContext.js';
import type { TraceWorker } from './worker.js';

export interface DeploymentChangeDeps {
  readonly mgmt: ManagementClient;
  readonly vhost: string;
  readonly log: EventLog;
  readonly accounting: TraceAccounting;
  readonly availability: QueueAvailability;
  readonly workers: readonly TraceWorker[];
  readonly conn: ManagedConnection;
  now(): number;
  /** broker name -> design name */
  back(name: string): string;
  isStopping(): boolean;
  emit(lane: Lane, e: EventInput): void;
  /** the trace ends (stopped) for this reason */
  end(reason: string): void;
}

export class DeploymentChanges {
  constructor(private readonly d: DeploymentChangeDeps) {}

  /** A cancelled consumer: its queue deleted (the topology changed), or still declared with its node down (wait for it). */
  async consumerCancelled(w: TraceWorker): Promise<void> {
    const d = this.d;
    const q = await d.mgmt.queue(d.vhost, w.spec.queue).catch(() => undefined);
    const down =
      q && typeof q.state === 'string' && q.state !== 'running'
        ? `state '${q.state}' on ${q.node ?? 'its node'}`
        : undefined;
    const why = down ? `queue '${w.designQueue}' is unavailable (${down})` : `queue '${w.designQueue}' was deleted`;
    d.log.notice({
      level: 'warn',
      code: 'consumer-cancelled',
      message: `consumer '${w.spec.id}' was cancelled by the broker: ${why}`,
      t: d.now(),
    });
    if (down) this.queueUnavailable(w.spec.queue, down);
    else this.queueGone(w.spec.queue, `consumer '${w.spec.id}' was cancelled: ${why}`);
  }

  /** A queue whose node is down: its messages are not counted dropped, the trace waits for it (blocker) and goes on. */
  queueUnavailable(realQueue: string, message: string): void {
    const q = this.d.back(realQueue);
    const copies = this.d.accounting.messagesIn(q).reduce((s, m) => s + m.copies, 0);
    const notice = this.d.availability.markUnavailable(q, message, copies);
    if (notice) this.d.log.notice({ ...notice, t: this.d.now() });
  }

  queueReachable(realQueue: string): void {
    const notice = this.d.availability.markReachable(this.d.back(realQueue));
    if (!notice) return;
    for (const w of this.d.workers)
      if (w.spec.queue === realQueue && w.cancelled) void w.resume(this.d.conn).catch(() => undefined);
    this.d.log.notice({ ...notice, t: this.d.now() });
  }

  /** A queue of the deployment is gone: its messages with it; the trace ends with the reason. */
  queueGone(realQueue: string, why: string): void {
    if (this.d.isStopping()) return;
    const queue = this.d.back(realQueue);
    for (const { msgId, copies } of this.d.accounting.messagesIn(queue))
      for (let i = 0; i < copies; i++)
        this.d.emit('broker', { kind: 'dropped', msgId, body: '', why: 'queue-deleted', queue });
    this.topologyChanged([why]);
  }

  topologyChanged(changes: readonly string[]): void {
    if (this.d.isStopping()) return;
    const reason = `the topology changed during the trace: ${changes.slice(0, 5).join('; ')}`;
    this.d.log.notice({ level: 'warn', code: 'topology-changed', message: reason, t: this.d.now() });
    this.d.end(reason);
  }
}
