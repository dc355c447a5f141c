/**
 * Rascal's recovery strategies as consumer rules (onebeyond/rascal lib/amqp/SubscriberError.js,
 * 21.0.1): they run in order until one handles the message, then `fallback-nack`.
 * - `republish` (attempts N, defer d): after d ms, publish a copy to the default exchange with the
 *   queue's name (the tail of the same queue) counting `rascal.recovery.<q>.republished`, and ack;
 *   past N, skip to the next strategy; `immediateNack`: the copy is nacked on its next delivery;
 * - `forward` (publication P, attempts N): publish to P's exchange, keeping the routing key (or
 *   P's), with CC `<queue>.<routingKey>`, counting `forwarded`;
 * - `nack` (requeue, defer): basic.nack, requeue false unless said;
 * - `ack`: in 21.0.1 it calls session._nack: a nack without requeue (the README says ack);
 * - `fallback-nack` (always last): basic.nack requeue=false.
 * A redelivery limit counts redeliveries only with a real counter (`inMemory`, `inMemoryCluster`
 * or one of the application's); the default `stub` counter always answers 0. Only a nack with
 * requeue redelivers: a republished or forwarded copy is a new message the counter never sees.
 */
import type { ConsumerAction, Rule } from '../../model/consumer.js';
import { entry, type JsNode, type JsValues } from './jsLiteral.js';
import type { SourceBuilder } from './sourceBuilder.js';

/** the header our model counts a strategy's rounds in (Rascal nests it under `rascal.recovery.<queue>`) */
export const countHeader = (strategy: string): string => `x-rascal-${strategy}ed`;
export const IMMEDIATE_NACK_HEADER = 'x-rascal-immediate-nack';

export interface Publication {
  readonly exchange: string;
  readonly routingKey?: string;
  readonly cc: readonly string[];
}

export interface RecoveryContext {
  readonly values: JsValues;
  readonly src: SourceBuilder;
  readonly line: (at: number) => number;
  readonly queue: string;
  /** the key messages arrive with (the forward strategy's CC is built from it) */
  readonly entryKey: string;
  readonly publications: ReadonlyMap<string, Publication>;
  /** redeliveries.limit when a counting counter is configured */
  readonly redeliveryLimit?: number;
}

const deferred = (ms: number, then: ConsumerAction): ConsumerAction => (ms > 0 ? { kind: 'defer', ms, then } : then);

function strategyRules(s: JsNode, ctx: RecoveryContext): { rules: Rule[]; handlesAll: boolean } {
  const { values } = ctx;
  const name = String(values.scalar(entry(s, 'strategy')) ?? '');
  const defer = Number(values.scalar(entry(s, 'defer')) ?? 0) || 0;
  const attemptsV = values.scalar(entry(s, 'attempts'));
  const attempts = attemptsV === undefined ? undefined : Number(attemptsV);
  const line = ctx.line(s.at);
  const counted = (
    strategy: string,
    publish: (headers: Record<string, unknown>) => ConsumerAction,
  ): { rules: Rule[]; handlesAll: boolean } => {
    const h = countHeader(strategy);
    const action = deferred(defer, publish({ [h]: { kind: 'counter', by: { kind: 'header', name: h }, add: 1 } }));
    if (attempts === undefined || !Number.isFinite(attempts)) return { rules: [{ then: action }], handlesAll: true };
    return {
      rules: [{ when: { kind: 'lt', counter: { kind: 'header', name: h }, value: attempts }, then: action }],
      handlesAll: false,
    };
  };
  switch (name) {
    case 'republish': {
      ctx.src.read(
        'recovery republish',
        `attempts ${attempts ?? 'unlimited'}, defer ${defer} ms${values.scalar(entry(s, 'immediateNack')) === true ? ', immediateNack' : ''}`,
        line,
      );
      const immediate = values.scalar(entry(s, 'immediateNack')) === true;
      return counted('republish', (headers) => ({
        kind: 'republish',
        exchange: '',
        routingKey: ctx.queue,
        headers: { ...(headers as Record<string, never>), ...(immediate ? { [IMMEDIATE_NACK_HEADER]: true } : {}) },
      }));
    }
    case 'forward': {
      const pubName = String(values.scalar(entry(s, 'publication')) ?? '');
      const pub = ctx.publications.get(pubName);
      ctx.src.read('recovery forward', `${pubName}, attempts ${attempts ?? 'unlimited'}, defer ${defer} ms`, line);
      if (!pub) {
        ctx.src.note(
          'not-understood',
          line,
          `forward to publication "${pubName}": not in this configuration; read as a nack`,
        );
        return { rules: [{ then: deferred(defer, { kind: 'reject' }) }], handlesAll: true };
      }
      const rk = pub.routingKey ?? ctx.entryKey;
      return counted('forward', (headers) => ({
        kind: 'republish',
        exchange: pub.exchange,
        ...(pub.routingKey !== undefined ? { routingKey: pub.routingKey } : {}),
        headers: { ...(headers as Record<string, never>), CC: [...pub.cc, `${ctx.queue}.${rk}`] },
      }));
    }
    case 'nack': {
      const requeue =
        values.scalar(entry(s, 'requeue')) === true || values.scalar(entry(entry(s, 'options'), 'requeue')) === true;
      ctx.src.read('recovery nack', `requeue ${requeue}, defer ${defer} ms`, line);
      return {
        rules: [{ then: deferred(defer, requeue ? { kind: 'requeue' } : { kind: 'reject' }) }],
        handlesAll: true,
      };
    }
    case 'ack':
      ctx.src.read('recovery ack', 'nack without requeue (Rascal 21.0.1 calls session._nack)', line);
      ctx.src.note(
        'trap',
        line,
        "Rascal's 'ack' recovery strategy nacks without requeue (lib/amqp/SubscriberError.js: ackFn is session._nack): with a dead-letter exchange the message is dead-lettered, without one it is dropped, not acked",
        'strategy: ack',
        {
          fix: 'Acknowledge in the handler (ackOrNack() with no error) when the message is to be dropped on purpose; keep a dead-letter exchange on the queue otherwise.',
        },
      );
      return { rules: [{ then: deferred(defer, { kind: 'reject' }) }], handlesAll: true };
    default:
      ctx.src.note(
        'not-understood',
        line,
        `recovery strategy "${name}": Rascal nacks the message and reports "No such strategy"`,
      );
      return { rules: [{ then: { kind: 'reject' } }], handlesAll: true };
  }
}

/** The subscription's failure rules: its redelivery limit, its strategies in order, then fallback-nack. */
export function recoveryRules(strategies: readonly JsNode[], ctx: RecoveryContext): Rule[] {
  const rules: Rule[] = [];
  if (strategies.some((s) => ctx.values.scalar(entry(s, 'immediateNack')) === true))
    // the copy carries Rascal's immediateNack header: the next delivery is nacked before the handler runs
    rules.push({ when: { kind: 'hasHeader', name: IMMEDIATE_NACK_HEADER, is: true }, then: { kind: 'reject' } });
  // the counter counts redeliveries (message.fields.redelivered): only a nack with requeue makes them; a republished
  // or forwarded copy is a new message. Past the limit the subscriber nacks without requeue (redeliveries_exceeded)
  const requeues = strategies.some(
    (s) =>
      ctx.values.scalar(entry(s, 'strategy')) === 'nack' &&
      (ctx.values.scalar(entry(s, 'requeue')) === true ||
        ctx.values.scalar(entry(entry(s, 'options'), 'requeue')) === true),
  );
  if (ctx.redeliveryLimit !== undefined && requeues)
    rules.push({
      when: { kind: 'gte', counter: { kind: 'attempt' }, value: ctx.redeliveryLimit + 1 },
      then: { kind: 'reject' },
    });
  for (const s of strategies) {
    const r = strategyRules(ctx.values.node(s) ?? s, ctx);
    rules.push(...r.rules);
    if (r.handlesAll) return rules;
  }
  rules.push({ then: { kind: 'reject' } });
  return rules;
}
