/**
 * `upgrade-check --verify-on`: the original and the migrated topology declared object by object
 * in throwaway vhosts on the target broker (AMQP for exchanges, queues and bindings, each on its
 * own channel so one refusal does not hide the next; the management API for policies), what
 * the broker refused in its own words next to what the check predicted. The vhosts are deleted
 * afterwards, whatever happened.
 */
import type { ChannelModel } from 'amqplib';
import type { BrokerProfileId, Topology } from '@retry-studio/topology-core/model';
import type { UpgradeFinding } from '@retry-studio/topology-core/upgrade';
import { profileForBrokerVersion } from '@retry-studio/topology-core/operate';
import {
  openConnection,
  requireManagement,
  resolveManagement,
  withThrowawayChannel,
  withVhost,
  type AmqpUrl,
  type ManagementClient,
} from '../broker/index.js';
import { declareBinding, declareExchange, declarePolicy, declareQueue } from '../deploy/declareTopology.js';
import { exchangeShape, queueShape } from '../deploy/planDeploy.js';
import { inThrowawayVhost } from '../broker/throwawayVhost.js';
import type { DeclarationOutcomeView, VerifyRunView } from '@retry-studio/contract';

/** the contract's shapes (POST /api/upgrade/verify answers with them): one definition */
export type DeclarationOutcome = DeclarationOutcomeView;
export type VerifyRun = VerifyRunView;

export interface VerifyResult {
  readonly brokerVersion: string;
  readonly brokerProfile: BrokerProfileId;
  readonly original: VerifyRun;
  readonly migrated: VerifyRun;
}

export interface VerifyTarget {
  readonly url: AmqpUrl;
  readonly management: ManagementClient;
  readonly version: string;
  readonly profile: BrokerProfileId;
}

/** The target broker of --verify-on: its management API (verified to be the same broker) and version. */
export async function verifyTarget(url: AmqpUrl, managementUrl?: string): Promise<VerifyTarget> {
  const management = requireManagement(
    await resolveManagement(url, managementUrl !== undefined ? { managementUrl } : {}),
  );
  const ov = await management.overview();
  const version = String(ov.rabbitmq_version ?? '');
  const p = profileForBrokerVersion(version);
  return { url, management, version, profile: p.v43 ? '4.3' : p.profile };
}

/** The broker's words, on one line, without the client's wrapping. */
export const errText = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e))
    .replace(/^Channel closed by server: /, '')
    .replace(/^Operation failed: \w+; /, '')
    .replace(/^management API \w+ \S+ failed with /, '')
    .replace(/\s*\n+\s*/g, ' ')
    // 3.10's management API HTML-escapes its reasons
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

async function attempt(
  conn: ChannelModel,
  fn: (ch: import('amqplib').Channel) => Promise<unknown>,
): Promise<string | undefined> {
  try {
    await withThrowawayChannel(conn, async (ch) => {
      await fn(ch);
    });
    return undefined;
  } catch (e) {
    return errText(e);
  }
}

export async function declareAll(
  t: VerifyTarget,
  vhost: string,
  topology: Topology,
): Promise<{ object: string; error?: string }[]> {
  const out: { object: string; error?: string }[] = [];
  let conn = await openConnection(withVhost(t.url, vhost), { purpose: 'cli', label: 'upgrade-check verify' });
  conn.on('error', () => undefined);
  // a connection-level refusal (540 NOT_IMPLEMENTED, ...) closes the connection: open another for what follows
  const run = async (object: string, fn: (ch: import('amqplib').Channel) => Promise<unknown>): Promise<void> => {
    const error = await attempt(conn, fn).catch((e: unknown) => errText(e));
    out.push({ object, ...(error !== undefined ? { error } : {}) });
    if (error !== undefined) {
      const alive = await conn.createChannel().then(
        async (ch) => {
          await ch.close();
          return true;
        },
        () => false,
      );
      if (!alive) {
        conn = await openConnection(withVhost(t.url, vhost), { purpose: 'cli', label: 'upgrade-check verify' });
        conn.on('error', () => undefined);
      }
    }
  };
  try {
    for (const p of topology.policies ?? []) {
      let error: string | undefined;
      try {
        await declarePolicy(t.management, vhost, p);
      } catch (e) {
        error = errText(e);
      }
      out.push({ object: `policy ${p.name}`, ...(error !== undefined ? { error } : {}) });
    }
    for (const x of topology.exchanges)
      await run(`exchange ${x.name}`, (ch) => declareExchange(ch, x.name, exchangeShape(x)));
    for (const q of topology.queues) await run(`queue ${q.name}`, (ch) => declareQueue(ch, q.name, queueShape(q)));
    for (const b of topology.bindings)
      await run(`binding ${b.source} -> ${b.destination}`, (ch) => declareBinding(ch, b));
  } finally {
    await conn.close().catch(() => undefined);
  }
  return out;
}

/** Declares the topology in a fresh vhost, compares with the predicted refusals, deletes the vhost whatever happened. */
export async function verifyTopology(
  t: VerifyTarget,
  topology: Topology,
  predicted: readonly UpgradeFinding[],
  label: string,
): Promise<VerifyRun> {
  const refusedObjects = new Set(predicted.filter((f) => f.kind === 'refused').map((f) => f.object));
  const { vhost, result, cleanedUp } = await inThrowawayVhost(t.management, label, async (vhost) => {
    const declared = await declareAll(t, vhost, topology);
    const deprecatedUsed = await t.management.deprecatedFeaturesUsed().catch(() => undefined);
    const outcomes = declared.map((d): DeclarationOutcome => {
      const predictedRefused = refusedObjects.has(d.object);
      return {
        object: d.object,
        accepted: d.error === undefined,
        ...(d.error !== undefined ? { brokerSaid: d.error } : {}),
        ...(predictedRefused ? { predicted: 'refused' as const } : {}),
        agrees: d.object.startsWith('binding ') || predictedRefused === (d.error !== undefined),
      };
    });
    return { outcomes, deprecatedUsed };
  });
  const { outcomes, deprecatedUsed } = result;
  return { vhost, outcomes, cleanedUp, ...(deprecatedUsed !== undefined ? { deprecatedUsed } : {}) };
}
