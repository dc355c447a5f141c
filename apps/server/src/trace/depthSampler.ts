/**
 * Queue depths during a trace. Ready counts come from a passive declare (exact; the management
 * API's figures lag by its statistics interval, 5 s by default); unacked from our own workers.
 * A stream's declare counts 0 (it is read by offset, nothing is ready): its count is the
 * management API's, the messages it holds.
 * Designs with many queues fall back to the management API. A queue that is gone is reported
 * (the topology changed under the trace); one whose node is down is reported unavailable.
 */
import type { ManagedConnection, ManagementClient } from '../broker/index.js';

export interface Depth {
  readonly ready: number;
  readonly unacked: number;
}

export interface DepthSamplerHooks {
  /** a stream (real name): its passive declare says 0, so its count comes from the management API (a statistics interval late) */
  isStream(queue: string): boolean;
  /** a depth changed (real name) */
  onDepth(queue: string, d: Depth): void;
  /** unacked deliveries our workers hold on this queue */
  unacked(queue: string): number;
  /** a queue no longer exists */
  onMissing(queue: string): void;
  /**
   * a queue exists but cannot be reached (its node, a classic queue's home, is down: `down` is
   * the broker's message), or can be again (`down` undefined); called on changes only
   */
  onAvailability(queue: string, down: string | undefined): void;
  onFailure(message: string, first: boolean): void;
}

export class DepthSampler {
  readonly depths = new Map<string, Depth>();
  private sampling = false;
  private failing = false;
  /** queues whose node is down */
  private readonly down = new Set<string>();

  constructor(
    private readonly queues: readonly string[],
    private readonly conn: ManagedConnection,
    private readonly mgmt: ManagementClient,
    private readonly vhost: string,
    private readonly hooks: DepthSamplerHooks,
  ) {}

  private set(name: string, d: Depth): void {
    const prev = this.depths.get(name);
    this.depths.set(name, d);
    if (!prev || prev.ready !== d.ready || prev.unacked !== d.unacked) this.hooks.onDepth(name, d);
  }

  /** true when every queue was counted by a passive declare (exact) or found down or gone */
  async sample(final = false): Promise<boolean> {
    if (this.sampling && !final) return false;
    this.sampling = true;
    let exact = false;
    try {
      if (this.queues.length <= 200 && this.conn.isOpen) {
        // one channel; a missing queue closes it, so the next check opens another
        let ch: Awaited<ReturnType<ManagedConnection['createChannel']>> | undefined;
        try {
          for (const q of this.queues) {
            if (!ch) {
              ch = await this.conn.createChannel();
              ch.on('error', () => undefined);
            }
            try {
              if (this.hooks.isStream(q)) {
                const m = await this.mgmt.queue(this.vhost, q);
                if (!m) this.hooks.onMissing(q);
                else this.set(q, { ready: m.messages ?? 0, unacked: this.hooks.unacked(q) });
                continue;
              }
              const ok = await ch.checkQueue(q);
              if (this.down.delete(q)) this.hooks.onAvailability(q, undefined);
              this.set(q, { ready: ok.messageCount, unacked: this.hooks.unacked(q) });
            } catch (err) {
              const message = String((err as Error).message);
              if (!/NOT_FOUND|404/.test(message)) throw err;
              ch = undefined;
              // 404 too, but the queue is still declared: its home node is down (a cluster; RabbitMQ 4.3
              // says "process is stopped by supervisor", older ones "home node ... is down or inaccessible")
              if (!/process is stopped by supervisor|home node .* is down or inaccessible/.test(message))
                this.hooks.onMissing(q);
              else if (!this.down.has(q)) {
                this.down.add(q);
                this.hooks.onAvailability(q, message.replace(/^.*NOT_FOUND - /, '').replace(/"$/, ''));
              }
            }
          }
        } finally {
          await ch?.close().catch(() => undefined);
        }
        exact = true;
      } else {
        const mine = new Set(this.queues);
        for (const q of await this.mgmt.listQueues(this.vhost))
          if (mine.has(q.name))
            this.set(q.name, { ready: q.messages_ready ?? 0, unacked: q.messages_unacknowledged ?? 0 });
      }
      this.failing = false;
    } catch (err) {
      // broker restarting: sample again later (said once per failure streak)
      this.hooks.onFailure(
        `could not sample queue depths: ${String((err as Error).message).slice(0, 200)}`,
        !this.failing || final,
      );
      this.failing = true;
    } finally {
      this.sampling = false;
    }
    return exact;
  }
}
