/**
 * What a topology implies about its consumers when none are declared (a definitions file, a
 * live vhost): the one assumption the linter, the vhost importer and an upgrade check share.
 * - a queue with a dead-letter route and no TTL is a work queue: its consumer rejects a
 *   message it fails on (so failures dead-letter, as on the broker);
 * - a queue with a TTL and a dead-letter route (and no live consumer) is a wait queue: nobody
 *   consumes it, its messages dead-letter when they expire; unless it is in a dead-letter loop with
 *   a queue whose TTL is at least JOB_TIMEOUT_RATIO times shorter: then it is a work queue whose TTL
 *   is a job timeout (8 h beside a 5 s wait), and its worker rejects what it fails on; or unless
 *   clients publish to it and its dead letters only rest (in queues that only dead letters reach,
 *   with no route of their own): nothing sends them back, so it is no delay before work but a work
 *   queue whose TTL expires what no consumer took in time (17 service queues with a 24 h TTL and a DLQ);
 * - a queue that only dead letters reach, with no dead-letter route of its own (and no live
 *   consumer), is a parking lot: nobody consumes it, dead letters pile up there; so is one whose
 *   dead-letter route comes from a policy (a `.*` DLX policy covers the DLQ too);
 * - a stream is a parking place whoever reads it (readers move nothing);
 * - a quorum queue with 4.3's delayed retry is retried in place: its consumer requeues with
 *   basic.reject (what delayed retry and the delivery limit count);
 * - any other queue is idle (or a work queue that acks, when the broker shows consumers on it).
 * And the publishers (assumedPublishers): one per way into each entry exchange, so that every
 * binding has a message that matches it, and one per queue that nothing routes to, publishing by
 * the queue's name through the default exchange (how such queues are fed).
 */
import type { AmqpValue, BindingDef, Topology } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { Design } from '../model/design.js';
import { builtinExchangeType } from '../model/definitions.js';
import { effectiveArguments, queueSettingsOf } from '../model/effectiveSettings.js';
import { sampleTopicKey, topicMatches } from '../routing/topicMatcher.js';
import { formatDuration } from '../text/formatDuration.js';

/** What a queue is for, read from its effective arguments and who feeds it. */
export type QueueRole = 'work' | 'wait' | 'parking' | 'idle';

export interface AssumedConsumers {
  /** queue name -> role */
  readonly roles: Readonly<Record<string, QueueRole>>;
  /** queue name -> why it got its role (printed so users see the assumption) */
  readonly reasons: Readonly<Record<string, string>>;
  /** one worker per work queue: it rejects on failure where the queue dead-letters, else acks */
  readonly consumers: readonly ConsumerSpec[];
  /** every queue's effective arguments (arguments and policies combined) */
  readonly args: ReadonlyMap<string, Record<string, AmqpValue>>;
}

export interface AssumeOptions {
  /** live consumer counts per queue (a vhost import), when the broker gave them */
  readonly liveConsumers?: ReadonlyMap<string, number | undefined>;
}

/** The consumer id the assumption gives a work queue. */
export const assumedWorkerId = (queue: string): string => `worker-${queue}`;

/** A dead-letter route with a TTL at least this many times its loop partner's is a job timeout on a work queue, not a wait. */
export const JOB_TIMEOUT_RATIO = 10;

/** The queues a queue's dead letters can reach in one hop (its dead-letter routing key, else any key the DLX's bindings take). */
function deadLetterHop(
  topology: Topology,
  args: ReadonlyMap<string, Record<string, AmqpValue>>,
): Map<string, Set<string>> {
  const types = new Map<string, string>(topology.exchanges.map((x) => [x.name, x.type]));
  const toQueues = queueBindingsBySource(topology);
  const out = new Map<string, Set<string>>();
  for (const [q, a] of args) {
    const dlx = a['x-dead-letter-exchange'];
    if (typeof dlx !== 'string') continue;
    const dlrk = a['x-dead-letter-routing-key'];
    const to = new Set<string>();
    if (dlx === '') {
      if (typeof dlrk === 'string') to.add(dlrk);
    } else
      for (const b of toQueues.get(dlx) ?? []) {
        const type = types.get(dlx) ?? builtinExchangeType(dlx);
        if (typeof dlrk === 'string' && type === 'direct' && b.routing_key !== dlrk) continue;
        if (typeof dlrk === 'string' && type === 'topic' && !topicMatches(b.routing_key, dlrk)) continue;
        to.add(b.destination);
      }
    out.set(q, to);
  }
  return out;
}

/** The bindings to queues, by source exchange (one pass over the bindings, not one per dead-letter exchange). */
function queueBindingsBySource(topology: Topology): Map<string, BindingDef[]> {
  const out = new Map<string, BindingDef[]>();
  for (const b of topology.bindings) {
    if (b.destination_type !== 'queue') continue;
    const list = out.get(b.source);
    if (list) list.push(b);
    else out.set(b.source, [b]);
  }
  return out;
}

/** Without live consumer counts the answer depends on the topology alone: several rules ask it of one file. */
const lastAnswers = new WeakMap<Topology, AssumedConsumers>();

export function assumedConsumers(topology: Topology, opts: AssumeOptions = {}): AssumedConsumers {
  if (opts.liveConsumers) return assume(topology, opts);
  let r = lastAnswers.get(topology);
  if (!r) lastAnswers.set(topology, (r = assume(topology, opts)));
  return r;
}

function assume(topology: Topology, opts: AssumeOptions): AssumedConsumers {
  const live = (q: string): boolean => (opts.liveConsumers?.get(q) ?? 0) > 0;
  const dlxOf = new Map<string, string>();
  const args = new Map<string, Record<string, AmqpValue>>();
  const dlxFromPolicy = new Map<string, string>();
  const settingsOf = queueSettingsOf(topology);
  for (const q of topology.queues) {
    const settings = settingsOf.get(q.name)!;
    const a = effectiveArguments(settings);
    args.set(q.name, a);
    const dlx = a['x-dead-letter-exchange'];
    if (typeof dlx === 'string') dlxOf.set(q.name, dlx);
    const src = settings.settings['x-dead-letter-exchange']?.source;
    if (src && src.kind !== 'argument') dlxFromPolicy.set(q.name, src.name);
  }
  // which queues dead letters reach: the queues each dead-letter exchange routes to
  const dlxs = new Set(dlxOf.values());
  const fedByDlx = new Set<string>();
  for (const b of topology.bindings)
    if (dlxs.has(b.source) && b.destination_type === 'queue') fedByDlx.add(b.destination);
  for (const [q, dlx] of dlxOf) {
    // the default exchange as DLX routes by the dead-letter routing key, i.e. to that queue
    const dlrk = args.get(q)?.['x-dead-letter-routing-key'];
    if (dlx === '' && typeof dlrk === 'string') fedByDlx.add(dlrk);
  }
  const hop = deadLetterHop(topology, args);
  // fed by clients: bound from an exchange no queue dead-letters into, or bound from nothing and dead-lettered
  // into by nothing (published by its name through the default exchange)
  const publisherFed = new Set<string>();
  const boundAtAll = new Set<string>();
  for (const b of topology.bindings)
    if (b.destination_type === 'queue') {
      boundAtAll.add(b.destination);
      if (!dlxs.has(b.source)) publisherFed.add(b.destination);
    }
  for (const q of topology.queues) if (!boundAtAll.has(q.name) && !fedByDlx.has(q.name)) publisherFed.add(q.name);
  // a TTL queue clients publish to whose dead letters only rest (in queues with no route of their own that only
  // dead letters reach): nothing sends them back, its TTL expires what no consumer took in time; a work queue
  const restsIn = (q: string): readonly string[] | undefined => {
    const to = [...(hop.get(q) ?? [])];
    return to.length > 0 && to.every((t) => t !== q && !dlxOf.has(t) && !publisherFed.has(t)) ? to : undefined;
  };
  const ttlOf = (q: string): number | undefined => {
    const t = args.get(q)?.['x-message-ttl'];
    return typeof t === 'number' ? t : undefined;
  };
  // a TTL queue in a dead-letter loop with a queue whose TTL is far shorter: the long one is a work queue with a job timeout
  const partners = new Map<string, string | undefined>();
  const loopPartnerWait = (q: string): string | undefined => {
    if (!partners.has(q)) partners.set(q, partnerOf(q));
    return partners.get(q);
  };
  const partnerOf = (q: string): string | undefined => {
    const ttl = ttlOf(q);
    if (ttl === undefined) return undefined;
    for (const p of hop.get(q) ?? []) {
      const pt = ttlOf(p);
      if (p !== q && pt !== undefined && dlxOf.has(p) && hop.get(p)?.has(q) && ttl >= JOB_TIMEOUT_RATIO * pt) return p;
    }
    return undefined;
  };
  const expiringWork = new Map<string, readonly string[]>();
  for (const [q] of dlxOf) {
    if (ttlOf(q) === undefined || live(q) || !publisherFed.has(q) || loopPartnerWait(q) !== undefined) continue;
    const rests = restsIn(q);
    if (rests) expiringWork.set(q, rests);
  }
  // a dead-letter exchange only wait queues use is the way back to work, where clients publish too: what it feeds is fed
  // by bindings; one a work queue dead-letters into as well carries real failures (its queues may park them)
  const waitDlxs = new Set<string>();
  for (const [q, dlx] of dlxOf) if (ttlOf(q) !== undefined && !expiringWork.has(q)) waitDlxs.add(dlx);
  for (const [q, dlx] of dlxOf) if (ttlOf(q) === undefined || expiringWork.has(q)) waitDlxs.delete(dlx);
  const fedByBinding = new Set<string>();
  for (const b of topology.bindings)
    if ((!dlxs.has(b.source) || waitDlxs.has(b.source)) && b.destination_type === 'queue')
      fedByBinding.add(b.destination);

  const roles: Record<string, QueueRole> = {};
  const reasons: Record<string, string> = {};
  const consumers: ConsumerSpec[] = [];
  for (const q of topology.queues) {
    const a = args.get(q.name) ?? {};
    const hasDlx = typeof a['x-dead-letter-exchange'] === 'string';
    const hasTtl = a['x-message-ttl'] !== undefined;
    const delayedRetry =
      a['x-queue-type'] === 'quorum' &&
      typeof a['x-delayed-retry-type'] === 'string' &&
      a['x-delayed-retry-type'] !== 'disabled';
    const partner = hasDlx && hasTtl && !live(q.name) ? loopPartnerWait(q.name) : undefined;
    const expiresWork = expiringWork.get(q.name);
    const onlyDeadLetters = fedByDlx.has(q.name) && !fedByBinding.has(q.name) && !live(q.name);
    let role: QueueRole;
    let why: string;
    if (a['x-queue-type'] === 'stream') [role, why] = ['parking', 'a stream: readers move nothing'];
    else if (partner !== undefined)
      [role, why] = [
        'work',
        `a dead-letter route and a TTL (${formatDuration(ttlOf(q.name)!)}) far longer than its loop partner ${partner}'s (${formatDuration(ttlOf(partner)!)}): a job timeout on a work queue`,
      ];
    else if (expiresWork !== undefined)
      [role, why] = [
        'work',
        `a TTL (${formatDuration(ttlOf(q.name)!)}) and a dead-letter route, fed by clients, its dead letters resting in ${expiresWork.slice(0, 3).join(', ')}${expiresWork.length > 3 ? ', ...' : ''} (nothing sends them back): a work queue whose TTL expires what no consumer took in time`,
      ];
    else if (hasDlx && hasTtl && !live(q.name))
      [role, why] = [
        'wait',
        `a TTL (${formatDuration(ttlOf(q.name) ?? 0)}) and a dead-letter route: nobody consumes it, messages dead-letter when they expire`,
      ];
    else if (onlyDeadLetters && !hasTtl && dlxFromPolicy.has(q.name))
      [role, why] = [
        'parking',
        `only dead letters reach it; its dead-letter exchange comes from policy ${dlxFromPolicy.get(q.name)}, which covers it with the queues it parks for`,
      ];
    else if (hasDlx || delayedRetry)
      [role, why] = [
        'work',
        delayedRetry
          ? "4.3's delayed retry: its consumer requeues"
          : 'a dead-letter route and no TTL: its consumer rejects what it fails on',
      ];
    else if (onlyDeadLetters)
      [role, why] = ['parking', 'only dead letters reach it and it has no dead-letter route: they rest there'];
    else
      [role, why] = live(q.name)
        ? ['work', 'the broker shows consumers on it']
        : ['idle', 'nothing in the topology says who consumes it'];
    roles[q.name] = role;
    reasons[q.name] = why;
    if (role === 'work')
      consumers.push({
        id: assumedWorkerId(q.name),
        queue: q.name,
        label: `worker ${q.name}`,
        behaviour: {
          kind: 'worker',
          onFailure: [
            { then: delayedRetry ? { kind: 'requeue', via: 'reject' } : hasDlx ? { kind: 'reject' } : { kind: 'ack' } },
          ],
        },
      });
  }
  return { roles, reasons, consumers, args };
}

/** Every queue's assumed role and why, for JSON reports. */
export function assumedRoleList(
  assumed: AssumedConsumers,
): { readonly queue: string; readonly role: QueueRole; readonly reason: string }[] {
  return Object.entries(assumed.roles).map(([queue, role]) => ({ queue, role, reason: assumed.reasons[queue] ?? '' }));
}

const ROLE_WORDS: Readonly<Record<QueueRole, string>> = {
  work: 'work queue(s) whose consumer rejects what it fails on (acks where there is no dead-letter route)',
  wait: 'wait queue(s), not consumed',
  parking: 'parking queue(s), not consumed',
  idle: 'idle queue(s), no consumer',
};

/**
 * The assumption in a few lines, for a terminal: the count of each role with the first queues,
 * then each queue whose role is not the plain reading of its arguments (a TTL read as a job
 * timeout, a policy's DLX on a parking queue), with why. Bounded for a 10,000-queue file.
 */
export function describeAssumedRoles(assumed: AssumedConsumers, shown = 5): string[] {
  const by = new Map<QueueRole, string[]>();
  for (const [q, r] of Object.entries(assumed.roles)) {
    const list = by.get(r);
    if (list) list.push(q);
    else by.set(r, [q]);
  }
  const lines = (['work', 'wait', 'parking', 'idle'] as const).flatMap((r) => {
    const qs = by.get(r) ?? [];
    return qs.length === 0
      ? []
      : [
          `${qs.length} ${ROLE_WORDS[r]}: ${qs.slice(0, shown).join(', ')}${qs.length > shown ? `, and ${qs.length - shown} more` : ''}`,
        ];
  });
  const notable = Object.entries(assumed.reasons).filter(([, why]) =>
    /job timeout|comes from policy|expires what no consumer/.test(why),
  );
  for (const [q, why] of notable.slice(0, shown)) lines.push(`${q}: ${assumed.roles[q]}, ${why}`);
  if (notable.length > shown) lines.push(`and ${notable.length - shown} more such queues`);
  return lines;
}

/**
 * The publishers a consumer-less topology implies: one per way into each entry exchange (every
 * exchange but internal ones and a work queue's dead-letter exchange, the built-in `amq.*`
 * exchanges its bindings use included), so that every binding has a message that matches it.
 */
export function assumedPublishers(topology: Topology, assumed: AssumedConsumers): PublisherSpec[] {
  // a wait queue's DLX is the way back to work (an entry point); a work queue's DLX is the error path
  const errorPaths = new Set<string>();
  const waitPaths = new Set<string>();
  for (const [q, a] of assumed.args) {
    const dlx = a['x-dead-letter-exchange'];
    if (typeof dlx !== 'string') continue;
    if (assumed.roles[q] === 'work') errorPaths.add(dlx);
    if (assumed.roles[q] === 'wait') waitPaths.add(dlx);
  }
  for (const x of waitPaths) errorPaths.delete(x);
  const builtinSources = [...new Set(topology.bindings.map((b) => b.source))].flatMap((name) => {
    const type = builtinExchangeType(name);
    return type ? [{ name, type, internal: false }] : [];
  });
  const publishers: PublisherSpec[] = [];
  // bindings by source, in order: a pass over every binding per exchange was quadratic on a big vhost
  const bySource = new Map<string, BindingDef[]>();
  for (const b of topology.bindings) {
    const l = bySource.get(b.source);
    if (l) l.push(b);
    else bySource.set(b.source, [b]);
  }
  for (const x of [...topology.exchanges, ...builtinSources]) {
    if (errorPaths.has(x.name) || x.internal) continue;
    const seen = new Set<string>();
    for (const b of bySource.get(x.name) ?? []) {
      const headers =
        x.type === 'headers'
          ? Object.fromEntries(Object.entries(b.arguments ?? {}).filter(([k]) => !k.startsWith('x-')))
          : undefined;
      const routingKey =
        x.type === 'fanout' || x.type === 'headers'
          ? ''
          : x.type === 'topic'
            ? sampleTopicKey(b.routing_key)
            : b.routing_key;
      const key = JSON.stringify([routingKey, headers ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      const n = seen.size;
      publishers.push({
        id: n === 1 ? `publish-${x.name}` : `publish-${x.name}-${n}`,
        label: `to ${x.name}${n === 1 ? '' : ` (${routingKey || 'headers'})`}`,
        exchange: x.name,
        routingKey,
        bodyPrefix: n === 1 ? x.name : `${x.name}-${n}`,
        ...(headers && Object.keys(headers).length > 0 ? { properties: { headers } } : {}),
      });
    }
  }
  // a queue nothing routes to (no binding, no dead-letter route) is fed through the default exchange, by its name
  const reached = new Set<string>();
  for (const b of topology.bindings) if (b.destination_type === 'queue') reached.add(b.destination);
  for (const [, a] of assumed.args) {
    const dlrk = a['x-dead-letter-routing-key'];
    if (a['x-dead-letter-exchange'] === '' && typeof dlrk === 'string') reached.add(dlrk);
  }
  // a stream is parking whoever reads it, yet one nothing routes to is written to by its name (stream clients)
  for (const q of topology.queues)
    if (
      !reached.has(q.name) &&
      (assumed.roles[q.name] !== 'parking' || assumed.args.get(q.name)?.['x-queue-type'] === 'stream')
    )
      publishers.push({
        id: `publish-by-name-${q.name}`,
        label: `to ${q.name} (default exchange, by queue name)`,
        exchange: '',
        routingKey: q.name,
        bodyPrefix: q.name,
      });
  return publishers;
}

/**
 * A design with no consumers and no publishers (a definitions file, a file opened in the designer)
 * given the ones the topology implies; `assumed` says what was added (undefined: nothing was,
 * the design had actors of its own, or no exchange routes anywhere).
 */
export function withAssumedActors(design: Design): {
  readonly design: Design;
  readonly assumed?: { readonly consumers: readonly ConsumerSpec[]; readonly publishers: readonly PublisherSpec[] };
} {
  if (design.publishers.length > 0 || design.consumers.length > 0) return { design };
  const assumed = assumedConsumers(design.topology);
  const publishers = assumedPublishers(design.topology, assumed);
  if (publishers.length === 0) return { design };
  return {
    design: { ...design, consumers: [...assumed.consumers], publishers },
    assumed: { consumers: assumed.consumers, publishers },
  };
}
