/**
 * Applies a plan: policies first over the management API (so a queue declared next runs with
 * its policy from its first message; an update reaches existing queues in place), then
 * exchanges, queues, bindings on the 'apply' connection, then policies removed; within a
 * phase the declarations are pipelined over a few channels (a phase only starts once the
 * previous one has fully succeeded). Idempotent: `unchanged` items are skipped and
 * re-declaring an identical object is a no-op on the broker. `conflict` and `unsupported`
 * items are never touched (no delete, no redeclare). The first failure stops the run and is
 * reported with the object and the broker's own message, next to what was applied.
 */
import type { Channel } from 'amqplib';
import type { ManagedConnection } from '../broker/connection.js';
import type { ManagementClient } from '../broker/management.js';
import type { DeploymentRecord } from './manifest.js';
import type { AppliedItem, ApplyResult } from '@retry-studio/contract';
import type { DeployPlan, PlanItem } from './planDeploy.js';
import { brokerMessage, isCollateral } from './brokerMessage.js';
import { declareBinding, declareExchange, declarePolicy, declareQueue } from './declareTopology.js';

/** what a run applied and skipped: the contract's (POST /api/deploy answers with it) */
export type { AppliedItem, ApplyResult };

const unreachable = (): never => {
  throw new Error('unreachable: a phase holds one kind of item');
};

/** Channels used in parallel per phase: declarations of durable objects wait on disk, one RPC at a time per channel. */
const PHASE_CHANNELS = 16;

async function runPhase(
  conn: ManagedConnection,
  items: PlanItem[],
  declare: (ch: Channel, it: PlanItem) => Promise<unknown>,
): Promise<{ done: PlanItem[]; failed?: { item: PlanItem; err: unknown } }> {
  if (items.length === 0) return { done: [] };
  const lanes = Math.min(PHASE_CHANNELS, Math.ceil(items.length / 8));
  const channels = await Promise.all(Array.from({ length: lanes }, () => conn.createChannel()));
  const done: PlanItem[] = [];
  let failed: { item: PlanItem; err: unknown } | undefined;
  const results = await Promise.allSettled(items.map((it, i) => declare(channels[i % lanes]!, it)));
  results.forEach((r, i) => {
    if (r.status === 'fulfilled') done.push(items[i]!);
    else if (!failed || (isCollateral(failed.err) && !isCollateral(r.reason)))
      failed = { item: items[i]!, err: r.reason };
  });
  await Promise.all(channels.map((ch) => ch.close().catch(() => undefined)));
  return failed ? { done, failed } : { done };
}

export async function applyPlan(
  plan: DeployPlan,
  conn: ManagedConnection,
  mgmt: ManagementClient,
  record: DeploymentRecord,
): Promise<ApplyResult> {
  const t0 = performance.now();
  const applied: AppliedItem[] = [];
  const skipped = plan.items
    .filter((it) => it.status === 'conflict' || it.status === 'unsupported')
    .map((it) => ({ kind: it.kind, name: it.name, status: it.status, ...(it.message ? { message: it.message } : {}) }));
  let createdVhost = false;
  if (plan.vhostMissing) {
    await mgmt.createVhost(plan.vhost);
    createdVhost = true;
    record.createdVhost = true;
  }
  const finish = (failure?: ApplyResult['failure']): ApplyResult => {
    record.updatedAt = new Date().toISOString();
    return {
      ok: !failure,
      applied,
      skipped,
      ...(failure ? { failure } : {}),
      createdVhost,
      ms: performance.now() - t0,
    };
  };
  const todo = (kind: PlanItem['kind']) => plan.items.filter((it) => it.kind === kind && it.status === 'create');

  for (const it of plan.items) {
    if (it.kind !== 'policy' || (it.status !== 'create' && it.status !== 'update') || !it.desired) continue;
    const p = it.desired;
    try {
      await declarePolicy(mgmt, plan.vhost, p);
    } catch (err) {
      return finish({ kind: 'policy', name: p.name, brokerMessage: brokerMessage(err) });
    }
    applied.push({ kind: 'policy', name: p.name });
    if (!record.policies.includes(p.name)) record.policies.push(p.name);
  }

  const phases: [PlanItem['kind'], (ch: Channel, it: PlanItem) => Promise<unknown>][] = [
    ['exchange', (ch, it) => (it.kind === 'exchange' ? declareExchange(ch, it.name, it.desired) : unreachable())],
    ['queue', (ch, it) => (it.kind === 'queue' ? declareQueue(ch, it.name, it.desired) : unreachable())],
    ['binding', (ch, it) => (it.kind === 'binding' ? declareBinding(ch, it.binding) : unreachable())],
  ];
  for (const [kind, declare] of phases) {
    let res: Awaited<ReturnType<typeof runPhase>>;
    try {
      res = await runPhase(conn, todo(kind), declare);
    } catch (err) {
      return finish({ kind, name: '(channel)', brokerMessage: brokerMessage(err) });
    }
    for (const it of res.done) {
      applied.push({ kind: it.kind, name: it.name });
      if (it.kind === 'exchange' && !record.exchanges.includes(it.name)) record.exchanges.push(it.name);
      if (it.kind === 'queue' && !record.queues.includes(it.name)) record.queues.push(it.name);
      if (it.kind === 'binding') record.bindings.push(it.binding);
    }
    if (res.failed)
      return finish({
        kind: res.failed.item.kind,
        name: res.failed.item.name,
        brokerMessage: brokerMessage(res.failed.err),
      });
  }
  for (const it of plan.items) {
    if (it.kind !== 'policy' || it.status !== 'remove') continue;
    try {
      await mgmt.deletePolicy(plan.vhost, it.name);
    } catch (err) {
      return finish({ kind: 'policy', name: it.name, brokerMessage: brokerMessage(err) });
    }
    applied.push({ kind: 'policy', name: it.name });
    record.policies = record.policies.filter((n) => n !== it.name);
  }
  return finish();
}
