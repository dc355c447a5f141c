/**
 * The deployment under a trace, watched: read once as the broker has it when the trace starts
 * (brokerTopology.ts: the trace routes and mirrors with that), then read again at an interval;
 * any change (an object deleted or redeclared, a binding or policy gone) is reported, and the
 * trace ends with it as the reason: what it saw is no longer what it routes with.
 */
import type { Topology } from '@retry-studio/topology-core/model';
import type { ManagementClient } from '../broker/index.js';
import { readBrokerTopology, topologyChanges, type BrokerTopology } from './brokerTopology.js';

export class TopologyWatch {
  private baseline: BrokerTopology | undefined;

  /** `real`: the deployed design's topology (real names); `back`: broker name -> design name */
  constructor(
    private readonly mgmt: ManagementClient,
    private readonly vhost: string,
    private readonly real: Topology,
    private readonly back: (name: string) => string,
  ) {}

  /** The topology as the broker has it now; the one later reads are compared with. */
  async start(): Promise<BrokerTopology> {
    this.baseline = await readBrokerTopology(this.mgmt, this.vhost, this.real);
    return this.baseline;
  }

  /** Reads the topology again: the changes since the start (none when it could not be read). */
  async changes(): Promise<string[]> {
    if (!this.baseline) return [];
    const now = await readBrokerTopology(this.mgmt, this.vhost, this.real).catch(() => undefined);
    return now ? topologyChanges(this.baseline, now, this.back) : [];
  }
}
