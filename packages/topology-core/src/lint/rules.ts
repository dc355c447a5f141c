/**
 * The retry linter's rules. Each has a stable id; each finding names the canvas objects and
 * says how to fix it. Rules see only what is declared: a definitions file has no consumers.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { ConsumerAction, ValueExpr } from '../model/consumer.js';
import { MAX_TTL_MS } from '../model/arguments.js';
import { consumerNodeId, exchangeNodeId, publisherNodeId, queueNodeId, type NodeId } from '../model/nodeIds.js';
import { actionTargets, failureActions, type Flow } from './flow.js';
import type { LintContext, LintFinding, LintRule, LintSeverity } from './types.js';

const f = (id: string, severity: LintSeverity, message: string, objects: NodeId[], fix: string): LintFinding => ({ id, severity, message, objects, fix });
const isQuorum = (flow: Flow, q: string): boolean => flow.args.get(q)?.['x-queue-type'] === 'quorum';
const hasLimit = (flow: Flow, q: string): boolean => typeof flow.args.get(q)?.['x-delivery-limit'] === 'number';
const declared = (flow: Flow, x: string): boolean => x === '' || x.startsWith('amq.') || flow.exchangeType(x) !== undefined;

function allActions(ctx: LintContext): { consumer: string; queue: string; action: ConsumerAction }[] {
  const out: { consumer: string; queue: string; action: ConsumerAction }[] = [];
  const walk = (consumer: string, queue: string, a: ConsumerAction): void => {
    out.push({ consumer, queue, action: a });
    if (a.kind === 'retryInProcess') walk(consumer, queue, a.recover);
  };
  for (const c of ctx.design.consumers) {
    const b = c.behaviour;
    if (b.kind === 'worker') {
      b.onFailure.forEach((r) => walk(c.id, c.queue, r.then));
      if (b.onSuccess) walk(c.id, c.queue, b.onSuccess);
    } else if (b.kind === 'router') b.rules.forEach((r) => walk(c.id, c.queue, r.then));
    else b.actions.forEach((a) => walk(c.id, c.queue, a));
  }
  return out;
}

/** Numbers a value expression can produce (literal, curve values, exponential bounds). */
function possibleNumbers(v: ValueExpr | AmqpValue | undefined): number[] {
  if (typeof v === 'number') return [v];
  if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) return [Number(v)];
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const e = v as { kind?: string; values?: number[]; initialMs?: number; maxMs?: number };
    if (e.kind === 'curve' && Array.isArray(e.values)) return e.values;
    if (e.kind === 'exponential') return [e.initialMs ?? 0, e.maxMs ?? 0];
  }
  return [];
}
const isComputed = (v: unknown): boolean => typeof v === 'object' && v !== null && ['curve', 'exponential', 'counter', 'fromHeader'].includes((v as { kind?: string }).kind ?? '');

export const RULES: readonly LintRule[] = [
  {
    id: 'requeue-without-limit',
    title: 'Requeue with nothing to stop it',
    check: (ctx, flow) => {
      const out: LintFinding[] = [];
      for (const c of ctx.design.consumers)
        for (const { action, bounded } of failureActions(c)) {
          if (action.kind !== 'requeue' || bounded) continue;
          if (isQuorum(flow, c.queue) && (hasLimit(flow, c.queue) || ctx.profile !== '3.10')) continue;
          out.push(
            f(
              'requeue-without-limit',
              'error',
              `${c.id} requeues failed messages from ${c.queue} with no limit: a message that always fails is redelivered at once, forever, and blocks the queue.`,
              [consumerNodeId(c.id), queueNodeId(c.queue)],
              'Requeue only when redelivered is false (or below an attempt count), or use a quorum queue with x-delivery-limit and a DLX.',
            ),
          );
          break;
        }
      return out;
    },
  },
  {
    id: 'dead-letter-unroutable',
    title: 'Dead letters that no binding takes',
    check: (ctx, flow) => {
      const out: LintFinding[] = [];
      for (const q of ctx.design.topology.queues) {
        const a = flow.args.get(q.name)!;
        const dlx = a['x-dead-letter-exchange'];
        if (typeof dlx !== 'string' || !declared(flow, dlx) || dlx.startsWith('amq.')) continue;
        const dlrk = a['x-dead-letter-routing-key'];
        const keys = typeof dlrk === 'string' ? [dlrk] : flow.arrivalKeys(q.name);
        if (keys === undefined) continue;
        if (flow.possibleQueues(dlx, keys).size > 0) continue;
        out.push(
          f(
            'dead-letter-unroutable',
            'warning',
            `Dead letters from ${q.name} go to ${dlx === '' ? 'the default exchange' : dlx} with routing key ${keys.map((k) => JSON.stringify(k)).join(' or ')}, which no binding matches: they are dropped silently.`,
            [queueNodeId(q.name), exchangeNodeId(dlx)],
            `Bind a queue to ${dlx === '' ? 'a DLX' : dlx} for that key, set x-dead-letter-routing-key, or give the DLX an alternate exchange.`,
          ),
        );
      }
      return out;
    },
  },
  {
    id: 'dlx-missing',
    title: 'Dead-letter exchange not declared',
    check: (ctx, flow) =>
      ctx.design.topology.queues.flatMap((q) => {
        const dlx = flow.args.get(q.name)!['x-dead-letter-exchange'];
        if (typeof dlx !== 'string' || declared(flow, dlx)) return [];
        return [
          f(
            'dlx-missing',
            'error',
            `${q.name} dead-letters to ${dlx}, which is not declared: every rejected, expired or overflowing message is dropped.`,
            [queueNodeId(q.name)],
            `Declare the exchange ${dlx} (and bind a queue to it), or fix the x-dead-letter-exchange name.`,
          ),
        ];
      }),
  },
  {
    id: 'dlx-fanout-redelivers-to-all',
    title: 'Dead-lettering through a fanout to several queues',
    check: (ctx, flow) => {
      const out: LintFinding[] = [];
      for (const q of ctx.design.topology.queues) {
        const dlx = flow.args.get(q.name)!['x-dead-letter-exchange'];
        if (typeof dlx !== 'string' || flow.exchangeType(dlx) !== 'fanout') continue;
        const targets = flow.possibleQueues(dlx, undefined);
        if (targets.size < 2) continue;
        out.push(
          f(
            'dlx-fanout-redelivers-to-all',
            'warning',
            `${q.name} dead-letters into the fanout ${dlx}, which copies each dead letter to ${targets.size} queues (${[...targets].join(', ')}): a retry of one subscriber's failure reaches every subscriber again.`,
            [queueNodeId(q.name), exchangeNodeId(dlx), ...[...targets].map(queueNodeId)],
            'Dead-letter into a direct or topic exchange with x-dead-letter-routing-key set to the queue name, so the message goes back to the queue that failed it only.',
          ),
        );
      }
      return out;
    },
  },
  {
    id: 'per-message-ttl-head-of-line',
    title: 'Different per-message TTLs in one queue',
    check: (ctx, flow) => {
      const byQueue = new Map<string, Set<string>>();
      for (const { consumer, queue, action } of allActions(ctx)) {
        if (action.kind !== 'republish' || action.expiration === undefined) continue;
        const varies = isComputed(action.expiration);
        for (const t of actionTargets(flow, queue, action)) {
          if (flow.consumersByQueue.has(t)) continue;
          const s = byQueue.get(t) ?? new Set<string>();
          s.add(varies ? `${consumer}:*` : `${consumer}:${String(action.expiration)}`);
          if (varies) s.add('computed');
          byQueue.set(t, s);
        }
      }
      for (const p of ctx.design.publishers) {
        const exp = p.properties?.expiration;
        if (exp === undefined) continue;
        for (const t of flow.possibleQueues(p.exchange, [p.routingKey])) {
          if (flow.consumersByQueue.has(t)) continue;
          const s = byQueue.get(t) ?? new Set<string>();
          s.add(`publisher:${exp}`);
          byQueue.set(t, s);
        }
      }
      const out: LintFinding[] = [];
      for (const [q, s] of byQueue) {
        if (s.size < 2 && !s.has('computed')) continue;
        out.push(
          f(
            'per-message-ttl-head-of-line',
            'warning',
            `${q} holds messages with different per-message TTLs. RabbitMQ expires messages only at the head of a queue, so a short delay waits behind a longer one in front of it.`,
            [queueNodeId(q)],
            'Use one wait queue per delay with a queue-level x-message-ttl (chained TTL tiers or binary delay levels), or a delayed-message exchange.',
          ),
        );
      }
      return out;
    },
  },
  {
    id: 'automatic-cycle-dropped',
    title: 'Dead-letter cycle without a rejection',
    check: (ctx, flow) => {
      // queues that dead-letter by themselves (TTL / max-length) and nobody consumes
      const auto = ctx.design.topology.queues
        .map((q) => q.name)
        .filter((n) => {
          const a = flow.args.get(n)!;
          return (a['x-message-ttl'] !== undefined || a['x-max-length'] !== undefined || a['x-max-length-bytes'] !== undefined) && !flow.consumersByQueue.has(n);
        });
      const autoSet = new Set(auto);
      const out: LintFinding[] = [];
      const reported = new Set<string>();
      for (const start of auto) {
        // DFS for a path back to start through automatic queues only
        const stack: { q: string; path: string[] }[] = [{ q: start, path: [start] }];
        const seen = new Set<string>();
        let cycle: string[] | undefined;
        while (stack.length > 0 && !cycle) {
          const { q, path } = stack.pop()!;
          for (const t of flow.deadLetterTargets(q) ?? []) {
            if (t === start) {
              cycle = path;
              break;
            }
            if (autoSet.has(t) && !seen.has(t)) {
              seen.add(t);
              stack.push({ q: t, path: [...path, t] });
            }
          }
        }
        if (!cycle) continue;
        const key = [...cycle].sort().join('|');
        if (reported.has(key)) continue;
        reported.add(key);
        out.push(
          f(
            'automatic-cycle-dropped',
            ctx.consumersKnown ? 'error' : 'warning',
            `${cycle.join(' -> ')} -> ${start} dead-letters in a loop with no rejection in it (TTL or max-length only). RabbitMQ detects the cycle and drops the message when it would re-enter a queue it already died in.`,
            cycle.map(queueNodeId),
            'Break the loop: let a consumer reject somewhere in it, or route the last hop to a different queue (e.g. the work queue, which rejects).',
          ),
        );
      }
      return out;
    },
  },
  {
    id: 'retry-without-max',
    title: 'Retry loop without a maximum',
    check: (ctx, flow) => {
      const out: LintFinding[] = [];
      for (const c of ctx.design.consumers) {
        if (c.behaviour.kind === 'script') continue;
        const start = failureActions(c).filter((x) => !x.bounded && (x.action.kind === 'reject' || x.action.kind === 'republish'));
        if (start.length === 0) continue;
        const seen = new Set<string>();
        const work: string[] = [];
        for (const s of start) {
          const dlx = String(flow.args.get(c.queue)?.['x-dead-letter-exchange']);
          if (s.action.kind === 'reject' && flow.exchangeType(dlx) === 'radlx') {
            // radlx counts the retries; only its "dead" (header-bound) destinations can start a new cycle
            for (const b of flow.topology.bindings)
              if (b.source === dlx && b.destination_type === 'queue' && b.arguments && Object.keys(b.arguments).some((k) => k !== 'x-match')) work.push(b.destination);
            continue;
          }
          for (const t of actionTargets(flow, c.queue, s.action)) work.push(t);
        }
        let loops = false;
        while (work.length > 0 && !loops) {
          const q = work.pop()!;
          if (q === c.queue) {
            loops = true;
            break;
          }
          if (seen.has(q)) continue;
          seen.add(q);
          const cs = flow.consumersByQueue.get(q);
          if (cs) {
            for (const other of cs)
              for (const x of failureActions(other)) if (!x.bounded && x.action.kind !== 'requeue') for (const t of actionTargets(flow, q, x.action)) work.push(t);
          } else {
            const a = flow.args.get(q)!;
            if (a['x-message-ttl'] !== undefined || a['x-max-length'] !== undefined)
              if (flow.exchangeType(String(a['x-dead-letter-exchange'])) !== 'radlx') for (const t of flow.deadLetterTargets(q) ?? []) work.push(t);
          }
        }
        if (!loops) continue;
        out.push(
          f(
            'retry-without-max',
            'warning',
            `${c.id} sends failed messages from ${c.queue} around a retry loop that nothing counts: a poison message retries forever.`,
            [consumerNodeId(c.id), queueNodeId(c.queue)],
            'Add a rule with a limit (x-death count, an x-retries header, or the attempt count) that parks the message after N retries.',
          ),
        );
      }
      return out;
    },
  },
  {
    id: 'plugin-required',
    title: 'Needs a broker plugin or version',
    check: (ctx) => {
      const out: LintFinding[] = [];
      for (const x of ctx.design.topology.exchanges) {
        if (x.type === 'x-delayed-message')
          out.push(
            f(
              'plugin-required',
              'info',
              `${x.name} needs the rabbitmq_delayed_message_exchange plugin (deprecated upstream; delayed messages live on one node and are lost if it fails or the plugin is disabled).`,
              [exchangeNodeId(x.name)],
              'Enable the plugin on the target broker, or use the portable compile (TTL levels) instead.',
            ),
          );
        if (x.type === 'radlx')
          out.push(
            f(
              'plugin-required',
              ctx.profile === '3.10' ? 'error' : 'info',
              `${x.name} needs the radlx plugin (rabbitmq_retry_aware_dlx), which exists for RabbitMQ 3.13.2 to 4.1.x only${ctx.profile === '3.10' ? ': it cannot run on 3.10' : ''}.`,
              [exchangeNodeId(x.name)],
              'Deploy to a RabbitMQ 3.13/4.x broker with the plugin, or use dlx-ttl-wait-queue with an x-death count limit.',
            ),
          );
      }
      for (const q of ctx.design.topology.queues)
        if (Object.keys(q.arguments ?? {}).some((k) => k.startsWith('x-delayed-retry-')))
          out.push(
            f(
              'plugin-required',
              'warning',
              `${q.name} uses x-delayed-retry-*, a RabbitMQ 4.3 quorum-queue feature; older brokers ignore or refuse it.`,
              [queueNodeId(q.name)],
              'Deploy only to RabbitMQ 4.3+, or use a TTL wait queue.',
            ),
          );
      return out;
    },
  },
  {
    id: 'delayed-exchange-mandatory',
    title: 'mandatory or an alternate exchange on a delayed exchange',
    check: (ctx, flow) => {
      const out: LintFinding[] = [];
      for (const p of ctx.design.publishers)
        if (p.mandatory && flow.exchangeType(p.exchange) === 'x-delayed-message')
          out.push(
            f(
              'delayed-exchange-mandatory',
              'warning',
              `${p.id} publishes with mandatory=true to the delayed exchange ${p.exchange}: the plugin routes to nothing at publish time, so every message comes back as basic.return 312 NO_ROUTE although it is delivered later.`,
              [publisherNodeId(p.id), exchangeNodeId(p.exchange)],
              'Publish without mandatory to delayed exchanges.',
            ),
          );
      for (const x of ctx.design.topology.exchanges)
        if (x.type === 'x-delayed-message' && typeof x.arguments?.['alternate-exchange'] === 'string')
          out.push(
            f(
              'delayed-exchange-mandatory',
              'warning',
              `${x.name} is a delayed exchange with an alternate exchange: the AE receives a copy of every delayed message at once (plugin issue #36).`,
              [exchangeNodeId(x.name)],
              'Remove alternate-exchange from the delayed exchange.',
            ),
          );
      return out;
    },
  },
  {
    id: 'delay-out-of-range',
    title: 'x-delay outside 1..2^32-1 ms',
    check: (ctx) => {
      const out: LintFinding[] = [];
      const bad = (vals: number[]): number | undefined => vals.find((v) => !(v > 0 && v <= MAX_TTL_MS));
      for (const { consumer, action } of allActions(ctx)) {
        if (action.kind !== 'republish' || !action.headers || !('x-delay' in action.headers)) continue;
        const v = bad(possibleNumbers(action.headers['x-delay']));
        if (v !== undefined)
          out.push(
            f(
              'delay-out-of-range',
              'warning',
              `${consumer} republishes with x-delay ${v}: the delayed-message exchange only delays 0 < d <= 4294967295 ms and routes anything else at once.`,
              [consumerNodeId(consumer)],
              'Keep delays between 1 ms and 4294967295 ms (about 49.7 days); longer waits need a scheduler.',
            ),
          );
      }
      for (const p of ctx.design.publishers) {
        const h = p.properties?.headers;
        if (!h || !('x-delay' in h)) continue;
        const v = bad(possibleNumbers(h['x-delay']));
        if (v !== undefined)
          out.push(
            f('delay-out-of-range', 'warning', `${p.id} publishes with x-delay ${v}, which the plugin does not delay.`, [publisherNodeId(p.id)], 'Use 1..4294967295 ms.'),
          );
      }
      return out;
    },
  },
  {
    id: 'quorum-default-delivery-limit',
    title: 'Quorum queue without an explicit delivery limit',
    check: (ctx, flow) =>
      ctx.design.topology.queues.flatMap((q) => {
        if (!isQuorum(flow, q.name) || hasLimit(flow, q.name)) return [];
        const noDlx = typeof flow.args.get(q.name)!['x-dead-letter-exchange'] !== 'string';
        return [
          ctx.profile !== '3.10'
            ? f(
                'quorum-default-delivery-limit',
                'warning',
                `${q.name} has no x-delivery-limit: RabbitMQ 4.x applies a default of 20, so the 21st return ${noDlx ? 'drops the message (no DLX)' : 'dead-letters it'}.`,
                [queueNodeId(q.name)],
                'Set delivery-limit explicitly (by policy, so it can change later) and give the queue a DLX.',
              )
            : f(
                'quorum-default-delivery-limit',
                'info',
                `${q.name} has no x-delivery-limit: on 3.10 requeues are unlimited (and go to the back of the queue); after an upgrade to 4.x a default limit of 20 applies${noDlx ? ' and, with no DLX, drops the message' : ''}.`,
                [queueNodeId(q.name)],
                'Set delivery-limit explicitly, preferably through a policy.',
              ),
        ];
      }),
  },
  {
    id: 'dl-routing-key-without-dlx',
    title: 'Dead-letter routing key without a dead-letter exchange',
    check: (ctx, flow) =>
      ctx.design.topology.queues.flatMap((q) => {
        const a = flow.args.get(q.name)!;
        if (a['x-dead-letter-routing-key'] === undefined || a['x-dead-letter-exchange'] !== undefined) return [];
        return [
          f(
            'dl-routing-key-without-dlx',
            'error',
            `${q.name} sets a dead-letter routing key but no dead-letter exchange: nothing is dead-lettered (the broker refuses the declaration with routing_key_but_no_dlx_defined).`,
            [queueNodeId(q.name)],
            'Add x-dead-letter-exchange ("" for the default exchange) or remove the routing key.',
          ),
        ];
      }),
  },
  {
    id: 'overflow-drops-silently',
    title: 'Length limit that drops messages',
    check: (ctx, flow) =>
      ctx.design.topology.queues.flatMap((q) => {
        const a = flow.args.get(q.name)!;
        if (a['x-max-length'] === undefined && a['x-max-length-bytes'] === undefined) return [];
        const mode = (a['x-overflow'] as string | undefined) ?? 'drop-head';
        const dlx = a['x-dead-letter-exchange'] !== undefined;
        if (mode === 'drop-head' && !dlx)
          return [
            f(
              'overflow-drops-silently',
              'warning',
              `${q.name} has a length limit with overflow drop-head and no DLX: when it is full the oldest messages are discarded without trace.`,
              [queueNodeId(q.name)],
              'Add a DLX to keep them, or use x-overflow reject-publish with publisher confirms so publishers see nacks.',
            ),
          ];
        if (mode === 'reject-publish')
          return [
            f(
              'overflow-drops-silently',
              'info',
              `${q.name} rejects publishes when full: publishers that do not use confirms lose those messages silently, and dead-letters into it are dropped.`,
              [queueNodeId(q.name)],
              'Use publisher confirms and handle nacks; size the limit for retry bursts.',
            ),
          ];
        return [];
      }),
  },
  {
    id: 'large-exception-headers',
    title: 'Stack traces in headers',
    check: (ctx) =>
      allActions(ctx)
        .filter((x) => x.action.kind === 'republish' && x.action.exceptionHeaders === true)
        .filter((x, i, arr) => arr.findIndex((y) => y.consumer === x.consumer) === i)
        .map((x) =>
          f(
            'large-exception-headers',
            'warning',
            `${x.consumer} republishes with x-exception-stacktrace: a deep stack trace can exceed the negotiated frame_max and close the channel (Spring AMQP #2375, NServiceBus #3023).`,
            [consumerNodeId(x.consumer)],
            'Truncate the stack trace (Spring: RepublishMessageRecoverer headers size / frameMaxHeadroom) or leave it out of the headers.',
          ),
        ),
  },
  {
    id: 'immutable-argument-change',
    title: 'Changing arguments RabbitMQ will not change in place',
    check: (ctx) => {
      const prev = ctx.previous;
      if (!prev) return [];
      const out: LintFinding[] = [];
      const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
      for (const q of ctx.design.topology.queues) {
        const old = prev.queues.find((x) => x.name === q.name);
        if (!old) continue;
        const keys = new Set([...Object.keys(old.arguments ?? {}), ...Object.keys(q.arguments ?? {})].filter((k) => k.startsWith('x-')));
        const changed = [...keys].filter((k) => !same(old.arguments?.[k], q.arguments?.[k]));
        if ((old.durable ?? true) !== (q.durable ?? true)) changed.push('durable');
        if ((old.auto_delete ?? false) !== (q.auto_delete ?? false)) changed.push('auto_delete');
        if (changed.length === 0) continue;
        out.push(
          f(
            'immutable-argument-change',
            'error',
            `${q.name} already exists with different ${changed.join(', ')} (${changed.map((k) => `${k}: ${JSON.stringify(k === 'durable' ? old.durable : k === 'auto_delete' ? old.auto_delete : old.arguments?.[k])} -> ${JSON.stringify(k === 'durable' ? q.durable : k === 'auto_delete' ? q.auto_delete : q.arguments?.[k])}`).join('; ')}): redeclaring fails with PRECONDITION_FAILED (inequivalent arg).`,
            [queueNodeId(q.name)],
            'Set TTL, DLX, length limits and delivery-limit through a policy instead, or create a new queue and move consumers to it.',
          ),
        );
      }
      for (const x of ctx.design.topology.exchanges) {
        const old = prev.exchanges.find((e) => e.name === x.name);
        if (!old) continue;
        if (old.type !== x.type || !same(old.arguments, x.arguments) || (old.durable ?? true) !== (x.durable ?? true))
          out.push(
            f(
              'immutable-argument-change',
              'error',
              `${x.name} already exists as ${old.type}${old.arguments && Object.keys(old.arguments).length ? ` ${JSON.stringify(old.arguments)}` : ''}; declaring it as ${x.type}${x.arguments && Object.keys(x.arguments).length ? ` ${JSON.stringify(x.arguments)}` : ''} fails with PRECONDITION_FAILED.`,
              [exchangeNodeId(x.name)],
              'Use a new exchange name, or delete and recreate the exchange (its bindings go with it).',
            ),
          );
      }
      return out;
    },
  },
];

export const LINT_RULE_IDS: readonly string[] = RULES.map((r) => r.id);
