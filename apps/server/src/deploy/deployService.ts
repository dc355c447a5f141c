/**
 * Plan / deploy / teardown for one request: resolves the broker and the target (prefix or
 * vhost), renames the design onto it, diffs, applies, and keeps the manifest.
 */
import type { Design } from '@retry-studio/topology-core/model';
import { redactUrl, type AmqpUrl } from '../broker/index.js';
import type { Brokers } from '../broker/brokers.js';
import { applyPlan, type ApplyResult } from './applyPlan.js';
import { Renamer, renameDesign, resolveTarget, type DeployTarget } from './deployTarget.js';
import { Manifest, type DeploymentRecord } from './manifest.js';
import { diffTopology, queueConflictMessage, readBrokerState, type DeployPlan } from './planDeploy.js';
import { teardown, type TeardownResult } from './teardown.js';
import { ClusterNotReadyError } from './clusterNotReady.js';

export interface TargetRequest {
  readonly prefix?: string;
  readonly vhost?: string;
}

export class DeployService {
  constructor(
    readonly brokers: Brokers,
    readonly manifest: Manifest,
  ) {}

  target(design: Design | { name: string }, url: AmqpUrl, req: TargetRequest): DeployTarget {
    return resolveTarget(design.name, { ...req, urlVhost: url.vhost });
  }

  /** `managementUrl`: the user's (else env or discovery); always verified to be the broker at `url` */
  async plan(
    design: Design,
    url: AmqpUrl,
    target: DeployTarget,
    managementUrl?: string,
  ): Promise<{ plan: DeployPlan; real: Design }> {
    const r = new Renamer(target.prefix);
    const real = renameDesign(design, r);
    const state = await readBrokerState(await this.brokers.management(url, managementUrl), target.vhost);
    const owned = this.record(url, target)?.policies ?? [];
    const plan = diffTopology(design.topology, real.topology, state, target, owned);
    return { plan: await this.conflictDepthsNow(plan, url, target), real };
  }

  /**
   * A conflicting queue's depth from the broker now (a passive declare), not from the management
   * API's statistics, which are up to 5 s old ("holds 0 message(s)" while it held some). A stream
   * keeps the statistics' count: a passive declare says 0 for it.
   */
  private async conflictDepthsNow(plan: DeployPlan, url: AmqpUrl, target: DeployTarget): Promise<DeployPlan> {
    const conflicts = plan.items.filter(
      (i) => i.kind === 'queue' && i.status === 'conflict' && i.actual?.arguments?.['x-queue-type'] !== 'stream',
    );
    if (conflicts.length === 0 || plan.vhostMissing) return plan;
    const now = new Map<string, { messages: number; consumers: number }>();
    await this.brokers
      .using(url, target.vhost, 'apply', async (conn) => {
        for (const item of conflicts) {
          const ch = await conn.createChannel();
          try {
            const ok = await ch.checkQueue(item.name);
            now.set(item.name, { messages: ok.messageCount, consumers: ok.consumerCount });
          } catch {
            // gone since the management API listed it: the statistics stand
          } finally {
            await ch.close().catch(() => undefined);
          }
        }
      })
      .catch(() => undefined);
    const items = plan.items.map((i) => {
      const n = i.kind === 'queue' && i.status === 'conflict' && i.actual ? now.get(i.name) : undefined;
      if (!n || i.kind !== 'queue' || !i.actual) return i;
      return {
        ...i,
        actual: { ...i.actual, ...n },
        message: queueConflictMessage(i.name, i.differences ?? [], n.messages),
      };
    });
    return { ...plan, items };
  }

  async deploy(
    design: Design,
    url: AmqpUrl,
    target: DeployTarget,
    managementUrl?: string,
  ): Promise<{ plan: DeployPlan; result: ApplyResult; deployment: string }> {
    const { plan } = await this.plan(design, url, target, managementUrl);
    // refused before anything is declared: a half-replicated or mixed-version deploy is worse than none
    if (plan.cluster?.problems.length) throw new ClusterNotReadyError(plan.cluster.problems);
    const mgmt = await this.brokers.management(url, managementUrl);
    const record = this.manifest.open(redactUrl({ ...url, vhost: '/' }), target.vhost, target.prefix, design.name);
    if (plan.vhostMissing) {
      // the vhost must exist before the apply connection can open on it
      await mgmt.createVhost(target.vhost);
      record.createdVhost = true;
    }
    const result = await this.brokers.using(url, target.vhost, 'apply', (conn) =>
      applyPlan({ ...plan, vhostMissing: false }, conn, mgmt, record),
    );
    this.manifest.save();
    return { plan, result: { ...result, createdVhost: plan.vhostMissing }, deployment: record.id };
  }

  record(url: AmqpUrl, target: DeployTarget): DeploymentRecord | undefined {
    return this.manifest.get(Manifest.key(redactUrl({ ...url, vhost: '/' }), target.vhost, target.prefix));
  }

  async teardown(
    record: DeploymentRecord,
    url: AmqpUrl,
    force: boolean,
    managementUrl?: string,
  ): Promise<TeardownResult> {
    const mgmt = await this.brokers.management(url, managementUrl);
    const res = await this.brokers.using(url, record.vhost, 'apply', (conn) => teardown(record, conn, mgmt, force));
    if ('refused' in res) return res;
    if (res.ok) {
      if (res.deletedVhost) this.brokers.forget(url, record.vhost);
      this.manifest.remove(record.id);
    } else {
      // the manifest keeps what is left, so a later teardown tries it again
      const left = (kind: string) => new Set(res.left.filter((l) => l.kind === kind).map((l) => l.name));
      const [queues, exchanges, policies] = [left('queue'), left('exchange'), left('policy')];
      record.queues = record.queues.filter((q) => queues.has(q));
      record.exchanges = record.exchanges.filter((e) => exchanges.has(e));
      record.policies = record.policies.filter((p) => policies.has(p));
      record.bindings = [];
      this.manifest.save();
    }
    return res;
  }
}
