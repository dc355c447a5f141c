/**
 * On a cluster, a trace polls the management API for the nodes and where each of the design's
 * queues is led (quorum) or lives (classic), and hands each poll to NodeLossWatch
 * (nodeLossWatch.ts), which turns the first node loss into the simulator's NodeLoss. A single
 * broker is not polled.
 */
import type { QueueDef } from '@retry-studio/topology-core/model';
import type { ManagementClient } from '../broker/index.js';
import { NodeLossWatch, type ObservedNodeLoss } from './nodeLossWatch.js';

export class ClusterNodeWatch {
  private readonly watch = new NodeLossWatch();
  private polling = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  /** `queues`: the deployed design's queues (real names); `back`: broker name -> design name */
  constructor(
    private readonly mgmt: ManagementClient,
    private readonly vhost: string,
    private readonly queues: readonly QueueDef[],
    private readonly back: (name: string) => string,
    private readonly now: () => number,
  ) {}

  /** Polls every `everyMs` when the broker is a cluster (more than one node), until `stop`. */
  async start(everyMs: number): Promise<void> {
    const nodes = await this.mgmt.nodes().catch(() => []);
    if (nodes.length <= 1 || this.stopped) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), everyMs);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** one look at the cluster's nodes and where each queue is led or lives */
  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      const t = this.now();
      // a few queues: one request each; many: the vhost's list in one request
      const few = this.queues.length <= 20;
      const listed = few ? undefined : new Map((await this.mgmt.listQueues(this.vhost)).map((m) => [m.name, m]));
      const [nodes, queues] = await Promise.all([
        this.mgmt.nodes(),
        Promise.all(
          this.queues.map(async (q) => {
            const m = listed ? listed.get(q.name) : await this.mgmt.queue(this.vhost, q.name).catch(() => undefined);
            const home = m?.leader ?? m?.node;
            return {
              name: this.back(q.name),
              quorum: (m?.type ?? q.arguments?.['x-queue-type']) === 'quorum',
              home: typeof home === 'string' ? home : undefined,
            };
          }),
        ),
      ]);
      if (!this.stopped) this.watch.observe(t, nodes, queues);
    } catch {
      // the node answering the management API may be the one going down: the next poll tells
    } finally {
      this.polling = false;
    }
  }

  /** a node went down during the trace */
  get seen(): boolean {
    return this.watch.seen;
  }

  /** the first node loss, as observed until `endMs` (undefined when no node went down) */
  loss(endMs: number): ObservedNodeLoss | undefined {
    return this.watch.loss(endMs);
  }
}
