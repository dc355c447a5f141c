/**
 * Declarations the target broker refuses or treats differently, one rule each. A rule reads the
 * topology only (arguments and policies, effective settings as the broker resolves them) and
 * reuses what the model already knows: which policy keys a broker line refuses (policyKeys.ts),
 * the effective delivery limit per profile (sim/queueConfig.ts).
 */
import { nameList } from '../text/nameList.js';
import type { BrokerProfileId } from '../model/design.js';
import type { QueueDef, Topology } from '../model/definitions.js';
import { exchangeNodeId, queueNodeId, type NodeId } from '../model/nodeIds.js';
import { refusedPolicyKeys } from '../model/policyKeys.js';
import {
  DELAYED_RETRY_POLICY_FIX,
  delayedRetryArgumentNotes,
  delayedRetryPolicyRefusals,
} from '../model/delayedRetry.js';
import { queueEffectiveSettings } from '../model/effectiveSettings.js';
import { queueTypeOf, refusedQueueArguments } from '../model/arguments.js';
import { choosePolicy, POLICY_APPLY_TO_3_10, policyTargetOf } from '../model/policyMatch.js';
import { matchingPolicyQueues } from './mirroredQueues.js';
import { governedQueues } from '../model/policyMatch.js';
import { queueConfig } from '../sim/queueConfig.js';
import { profileFor } from '../sim/profiles.js';
import { SOURCES } from './sources.js';
import type { DeclarationFinding } from './types.js';

export interface DeclarationContext {
  readonly topology: Topology;
  readonly from: BrokerProfileId;
  readonly to: BrokerProfileId;
}

export interface DeclarationRule {
  readonly id: string;
  readonly title: string;
  readonly check: (ctx: DeclarationContext) => DeclarationFinding[];
}

const is4 = (p: BrokerProfileId): boolean => profileFor(p).major === 4;
export const isMirroringKey = (k: string): boolean => k.startsWith('ha-');
const erl = (k: string, v: unknown): string =>
  `{<<"${k}">>,${typeof v === 'string' ? `<<"${v}">>` : JSON.stringify(v)}}`;

/** Policy keys the target line does not recognise: classic mirroring (3.x -> 4.x), 4.x-only keys (4.x -> 3.x). */
const policyKeysRefused: DeclarationRule = {
  id: 'policy-key-refused',
  title: 'Policy keys the target refuses',
  check: ({ topology, to }) =>
    (topology.policies ?? []).flatMap((p): DeclarationFinding[] => {
      const keys = refusedPolicyKeys(p.definition, to);
      if (keys.length === 0) return [];
      const mirroring = keys.some(isMirroringKey);
      const queues = governedQueues(topology, p);
      const wording = `Validation failed\n\n[${keys.map((k) => erl(k, p.definition[k])).join(',')}] are not recognised policy settings`;
      return [
        {
          kind: 'refused',
          id: mirroring ? 'classic-mirroring-policy' : 'policy-key-refused',
          object: `policy ${p.name}`,
          objects: queues.map(queueNodeId),
          message: mirroring
            ? `policy ${p.name} sets classic mirroring (${keys.join(', ')}): RabbitMQ 4.x removed mirroring and refuses the policy; a definitions import answers 400 after it has already created the file's exchanges and the policies listed before this one (none of its queues; measured on 4.3.6)${queues.length ? `. It applies to ${nameList(queues)}` : ''}.`
            : `policy ${p.name} sets ${keys.join(', ')}, which RabbitMQ ${to} does not recognise: the policy is refused.`,
          brokerWording: wording,
          fix: mirroring
            ? 'Drop the ha-* keys; replicate the queues that need it as quorum queues (upgrade-check migrates them).'
            : `Drop ${keys.join(', ')} (or keep the setting as a queue argument where ${to} accepts one).`,
          sources: mirroring ? [SOURCES.rn400, SOURCES.measured] : [SOURCES.rn430, SOURCES.measured],
        },
      ];
    }),
};

/** Per-queue-type apply-to (classic_queues, quorum_queues, streams): 3.10 refuses the policy. */
const policyApplyToRefused: DeclarationRule = {
  id: 'policy-apply-to-refused',
  title: 'Policy apply-to the target does not know',
  check: ({ topology, to }) =>
    to === '3.10'
      ? (topology.policies ?? [])
          .filter((p) => p['apply-to'] !== undefined && !POLICY_APPLY_TO_3_10.includes(p['apply-to']))
          .map((p): DeclarationFinding => ({
            kind: 'refused',
            id: 'policy-apply-to-refused',
            object: `policy ${p.name}`,
            objects: matchingPolicyQueues(topology, p).map(queueNodeId),
            message: `policy ${p.name} applies to ${p['apply-to']}: RabbitMQ 3.10 knows only all, queues and exchanges, and refuses the policy; a definitions import that holds it answers 400 before creating any of its queues (measured on 3.10.8).`,
            brokerWording: `Validation failed apply-to '${p['apply-to']}' unrecognised; should be 'queues', 'exchanges' or 'all'`,
            fix: `Use apply-to queues (with a pattern that matches only the ${p['apply-to']!.replace('_queues', '')} queues meant).`,
            sources: [SOURCES.measured],
          }))
      : [],
};

/** A policy with mirroring keys only: once they are dropped nothing is left, and a lower-priority policy may apply instead. */
const policyEmptyWithoutMirroring: DeclarationRule = {
  id: 'policy-empty-without-mirroring',
  title: 'Policy that is empty once the mirroring keys are dropped',
  check: ({ topology, to }) =>
    is4(to)
      ? (topology.policies ?? []).flatMap((p): DeclarationFinding[] => {
          const keys = Object.keys(p.definition);
          if (keys.length === 0 || !keys.every(isMirroringKey)) return [];
          // where it wins today, the policy RabbitMQ applies once it is gone (choosePolicy without it), never one that already outranks it
          const governed = governedQueues(topology, p);
          const rest = (topology.policies ?? []).filter((o) => o !== p);
          const next = new Map<string, string[]>();
          for (const q of topology.queues.filter((x) => governed.includes(x.name))) {
            const o = choosePolicy(rest, q.name, policyTargetOf(q.arguments?.['x-queue-type'])).policy;
            if (o) next.set(o.name, [...(next.get(o.name) ?? []), q.name]);
          }
          const pr = p.priority ?? 0;
          const instead = [...next].map(([name, qs]) => {
            const o = rest.find((x) => x.name === name)!;
            const op = o.priority ?? 0;
            return `${name} (priority ${op}, ${op === pr ? 'tied with it' : 'below it'}) applies to ${nameList(qs)}`;
          });
          return [
            {
              kind: 'ignored',
              id: 'policy-empty-without-mirroring',
              object: `policy ${p.name}`,
              objects: governed.map(queueNodeId),
              message: `policy ${p.name} holds nothing but mirroring keys: on 4.x it has nothing left to set${instead.length ? `; without it, ${instead.join('; ')}` : ''}.`,
              fix: `Delete policy ${p.name} (the migration does); check what applies to its queues afterwards.`,
              sources: [SOURCES.rn400],
            },
          ];
        })
      : [],
};

/** The queue's effective value of an argument (argument or policy). */
function effective(topology: Topology, q: QueueDef, arg: string): unknown {
  return queueEffectiveSettings(q, { policies: topology.policies ?? [] }).settings[arg]?.value;
}

function queueRule(
  id: string,
  title: string,
  applies: (ctx: DeclarationContext, q: QueueDef) => boolean,
  make: (ctx: DeclarationContext, q: QueueDef) => DeclarationFinding | undefined,
): DeclarationRule {
  return {
    id,
    title,
    check: (ctx) =>
      ctx.topology.queues.flatMap((q) =>
        applies(ctx, q) ? [make(ctx, q)].filter((f): f is DeclarationFinding => f !== undefined) : [],
      ),
  };
}

const classicQueueVersion1 = queueRule(
  'classic-queue-version-1',
  'Classic queue storage version 1',
  ({ topology, to }, q) =>
    is4(to) && queueTypeOf(q.arguments) === 'classic' && Number(effective(topology, q, 'x-queue-version')) === 1,
  ({ to }, q) => {
    const base = {
      id: 'classic-queue-version-1',
      object: `queue ${q.name}`,
      objects: [queueNodeId(q.name)] as NodeId[],
      sources: [SOURCES.rn430, SOURCES.measured],
    };
    return to === '4.3'
      ? {
          ...base,
          kind: 'refused',
          message: `queue ${q.name} asks for classic queue storage version 1 (x-queue-version: 1): RabbitMQ 4.3 removed CQv1 and refuses the declaration.`,
          brokerWording: `PRECONDITION_FAILED - invalid arg 'x-queue-version' for queue '${q.name}' in vhost '…': "unsupported queue version '1'"`,
          fix: 'Drop x-queue-version (version 2 is the only one) or set it to 2.',
        }
      : {
          ...base,
          kind: 'deprecated',
          message: `queue ${q.name} uses classic queue storage version 1: deprecated on 4.0-4.2, refused from 4.3.`,
          fix: 'Drop x-queue-version or set it to 2.',
        };
  },
);

const queueMasterLocator = queueRule(
  'queue-master-locator',
  'Mirrored classic queue leader placement',
  ({ to }, q) => refusedQueueArguments(q.arguments, to).includes('x-queue-master-locator'),
  (_ctx, q) => ({
    kind: 'refused',
    id: 'queue-master-locator',
    object: `queue ${q.name}`,
    objects: [queueNodeId(q.name)],
    message: `queue ${q.name} sets x-queue-master-locator (a classic-mirroring argument): RabbitMQ 4.x closes the channel without a reply and the queue is not declared.`,
    brokerWording: 'the channel is closed without a reply (amqplib: "Channel ended, no reply will be forthcoming")',
    fix: 'Use x-queue-leader-locator (client-local or balanced) instead.',
    sources: [SOURCES.rn400, SOURCES.measured],
  }),
);

const lazyQueueMode = queueRule(
  'lazy-queue-mode',
  'x-queue-mode: lazy',
  ({ topology, from, to }, q) => from === '3.10' && is4(to) && effective(topology, q, 'x-queue-mode') === 'lazy',
  (_ctx, q) => ({
    kind: 'ignored',
    id: 'lazy-queue-mode',
    object: `queue ${q.name}`,
    objects: [queueNodeId(q.name)],
    message: `queue ${q.name} is lazy (x-queue-mode: lazy): accepted and ignored since 3.12 (classic queues page messages out by themselves).`,
    fix: 'Drop x-queue-mode.',
    sources: [SOURCES.rn312, SOURCES.measured],
  }),
);

const transientQueue = queueRule(
  'transient-nonexclusive-queue',
  'Non-durable, non-exclusive queue',
  ({ to }, q) => is4(to) && q.durable === false,
  (_ctx, q) => ({
    kind: 'deprecated',
    id: 'transient-nonexclusive-queue',
    object: `queue ${q.name}`,
    objects: [queueNodeId(q.name)],
    message: `queue ${q.name} is non-durable and non-exclusive: a deprecated feature (transient_nonexcl_queues). 4.3.6 here still accepts it and lists it as used; the 4.3.0 release notes say it is refused unless rabbitmq.conf permits it.`,
    fix: 'Declare it durable (with x-expires for clean-up), or exclusive to its connection.',
    sources: [SOURCES.rn430, SOURCES.measured],
  }),
);

/** The effective delivery limit differs (4.0+ default of 20; 3.x unlimited). */
const quorumDefaultDeliveryLimit = queueRule(
  'quorum-default-delivery-limit',
  'Quorum queue delivery limit default changes',
  ({ topology, from, to }, q) =>
    queueTypeOf(q.arguments) === 'quorum' &&
    queueConfig(q, topology.policies, profileFor(from)).deliveryLimit !==
      queueConfig(q, topology.policies, profileFor(to)).deliveryLimit,
  ({ topology, from, to }, q) => {
    const lim = (p: BrokerProfileId): string =>
      String(queueConfig(q, topology.policies, profileFor(p)).deliveryLimit ?? 'none (unlimited)');
    const dlx = typeof effective(topology, q, 'x-dead-letter-exchange') === 'string';
    return {
      kind: 'default-changed',
      id: 'quorum-default-delivery-limit',
      object: `queue ${q.name}`,
      objects: [queueNodeId(q.name)],
      message: `quorum queue ${q.name} sets no delivery limit: on ${from} the limit is ${lim(from)}, on ${to} ${lim(to)}${is4(to) ? `: a message returned more than 20 times is ${dlx ? 'dead-lettered' : 'dropped (no DLX)'} where ${from} retried it forever` : ': messages are requeued forever where 4.x gave up after 20 returns'}.`,
      fix: 'Set delivery-limit explicitly by policy (-1 for unlimited on 4.x); the migration adds one.',
      sources: [SOURCES.rn400DeliveryLimit, SOURCES.measured],
    };
  },
);

const delayedMessageExchange: DeclarationRule = {
  id: 'delayed-message-exchange',
  title: 'The delayed-message exchange plugin',
  check: ({ topology, to }) =>
    is4(to)
      ? topology.exchanges
          .filter((x) => x.type === 'x-delayed-message')
          .map((x): DeclarationFinding => {
            const base = {
              id: 'delayed-message-exchange',
              object: `exchange ${x.name}`,
              objects: [exchangeNodeId(x.name)],
              sources: [SOURCES.delayedPlugin, SOURCES.rn430, SOURCES.measured],
            };
            const fix =
              'Use quorum delayed retry (x-delayed-retry-type, 4.3) on the work queue, or TTL wait queues; the migration rewrites a worker that republishes to this exchange.';
            return to === '4.3'
              ? {
                  ...base,
                  kind: 'refused',
                  message: `exchange ${x.name} is an x-delayed-message exchange: the plugin was archived in January 2026 and is built on Mnesia, which 4.3 removed; 4.3 does not know the type.`,
                  brokerWording: `PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'`,
                  fix,
                }
              : {
                  ...base,
                  kind: 'deprecated',
                  message: `exchange ${x.name} needs the delayed-message exchange plugin: archived in January 2026, it cannot follow to 4.3 (Mnesia removed).`,
                  fix,
                };
          })
      : [],
};

/** 4.3's quorum delayed retry: 3.x and 4.0-4.2 accept the arguments and ignore them (retries come back at once). */
const delayedRetryIgnored = queueRule(
  'delayed-retry-ignored',
  'Quorum delayed retry on a broker without it',
  ({ to }, q) =>
    !profileFor(to).quorumDelayedRetry && Object.keys(q.arguments ?? {}).some((k) => k.startsWith('x-delayed-retry-')),
  ({ to }, q) => ({
    kind: 'ignored',
    id: 'delayed-retry-ignored',
    object: `queue ${q.name}`,
    objects: [queueNodeId(q.name)],
    message: `queue ${q.name} uses quorum delayed retry (x-delayed-retry-*): RabbitMQ ${to} accepts the arguments and ignores them, so a returned message comes back at once.`,
    fix: 'Delay with a TTL wait queue and a dead-letter exchange instead.',
    sources: [SOURCES.quorumDelayedRetry, SOURCES.measured],
  }),
);

/** 4.3 validates a delayed-retry policy's values and refuses the policy (model/delayedRetry.ts, measured on 4.3.6). */
const delayedRetryPolicyRefused: DeclarationRule = {
  id: 'delayed-retry-refused',
  title: 'A delayed-retry policy RabbitMQ 4.3 refuses',
  check: ({ topology, to }) =>
    !profileFor(to).quorumDelayedRetry
      ? []
      : (topology.policies ?? []).flatMap((p): DeclarationFinding[] => {
          const d = p.definition;
          const refusals = delayedRetryPolicyRefusals({
            type: d['delayed-retry-type'],
            min: d['delayed-retry-min'],
            max: d['delayed-retry-max'],
          });
          if (refusals.length === 0) return [];
          const fields = [...new Set(refusals.map((r) => `delayed-retry-${r.setting}`))];
          return [
            {
              kind: 'refused',
              id: 'delayed-retry-refused',
              object: `policy ${p.name}`,
              objects: governedQueues(topology, p).map(queueNodeId),
              message: `policy ${p.name}: ${fields.join(', ')}: RabbitMQ 4.3 refuses the policy (${refusals.map((r) => r.reason).join('; ')}); a definitions import that holds it fails with 400.`,
              // the broker names the first it finds
              brokerWording: `Validation failed\n\n${refusals[0]!.reason}`,
              fix: DELAYED_RETRY_POLICY_FIX,
              sources: [SOURCES.quorumDelayedRetry, SOURCES.measured],
            },
          ];
        }),
};

/** 4.3 declares a quorum queue whatever its delayed-retry arguments hold, and runs it with what it can read (measured on 4.3.6). */
const delayedRetryNotAsWritten: DeclarationRule = {
  id: 'delayed-retry-not-as-written',
  title: 'Delayed-retry arguments RabbitMQ 4.3 does not run as written',
  check: ({ topology, to }) =>
    !profileFor(to).quorumDelayedRetry
      ? []
      : topology.queues.flatMap((q): DeclarationFinding[] => {
          const a = q.arguments ?? {};
          if (queueTypeOf(a) !== 'quorum') return [];
          return delayedRetryArgumentNotes({
            type: a['x-delayed-retry-type'],
            min: a['x-delayed-retry-min'],
            max: a['x-delayed-retry-max'],
          }).map((n) => ({
            kind: 'ignored',
            id: 'delayed-retry-not-as-written',
            object: `queue ${q.name}`,
            objects: [queueNodeId(q.name)],
            message: `queue ${q.name}: ${n.message}.`,
            fix: 'Set x-delayed-retry-type with x-delayed-retry-min, a positive integer (ms), and x-delayed-retry-max not below it.',
            sources: [SOURCES.quorumDelayedRetry, SOURCES.measured],
          }));
        }),
};

export const DECLARATION_RULES: readonly DeclarationRule[] = [
  policyKeysRefused,
  policyApplyToRefused,
  policyEmptyWithoutMirroring,
  classicQueueVersion1,
  queueMasterLocator,
  lazyQueueMode,
  transientQueue,
  quorumDefaultDeliveryLimit,
  delayedMessageExchange,
  delayedRetryIgnored,
  delayedRetryPolicyRefused,
  delayedRetryNotAsWritten,
];

export function checkDeclarations(ctx: DeclarationContext): DeclarationFinding[] {
  return DECLARATION_RULES.flatMap((r) => r.check(ctx));
}
