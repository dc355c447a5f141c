/**
 * MassTransit (C#) read as text. Per receive endpoint (`ReceiveEndpoint("name", e => ...)`, or a
 * consumer's endpoint named by the endpoint name formatter when only `AddConsumer<T>` and
 * `ConfigureEndpoints` are used): `UseMessageRetry` (in-process retries, the message held),
 * then `UseDelayedRedelivery` / `UseScheduledRedelivery` (the message republished with a delay
 * through the delayed-message exchange `<queue>_delay` and a `MT-Redelivery-Count` header), then
 * the fault: the message moves to `<queue>_error` with MT-Fault-* headers, or, with
 * `DiscardFaultedMessages()`, is acked and gone. A policy written at the bus level
 * (`cfg.UseMessageRetry`, `AddConfigureEndpointsCallback`) applies to every endpoint. What
 * MassTransit declares per endpoint (docs: concepts/exceptions, transports/rabbitmq): the fanout
 * exchange and queue `<queue>`, and `<queue>_error` and `<queue>_skipped`, each a fanout exchange
 * bound to its queue.
 */
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec, Rule } from '../model/consumer.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { splitArgs, stringLiteral, type CodeText } from './read/codeText.js';
import { JavaValues } from './read/javaValues.js';
import { readRetryPolicy, type RetryPolicy } from './read/retryPolicy.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import type { AppFrameworkDef, AppInput, AppReading } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

export const REDELIVERY_HEADER = 'MT-Redelivery-Count';
const MT = 'https://masstransit.io/documentation/concepts/exceptions';

const D = {
  /** no retry unless configured: the first fault moves the message to `<queue>_error` */
  retry: { value: 'none', cite: MT },
  errorQueue: { value: '<queue>_error', cite: MT },
  skippedQueue: { value: '<queue>_skipped', cite: MT },
} as const;

const fanout = (
  name: string,
  args: ExchangeDef['arguments'] = {},
  type: ExchangeDef['type'] = 'fanout',
): ExchangeDef => ({
  name,
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: args,
});
const q = (name: string, args: QueueDef['arguments'] = {}): QueueDef => ({
  name,
  durable: true,
  auto_delete: false,
  arguments: args,
});
const toQueue = (x: string, dest: string): BindingDef => ({
  source: x,
  destination: dest,
  destination_type: 'queue',
  routing_key: '',
  arguments: {},
});

export const looksLikeMassTransit = (text: string): boolean =>
  /\bMassTransit\b|UsingRabbitMq|\bUseMessageRetry\s*\(|\bReceiveEndpoint\s*\(/.test(text);

interface Endpoint {
  readonly name: string;
  readonly at: number;
  /** the configuration's range in the text (none for a formatter-named endpoint) */
  readonly from: number;
  readonly to: number;
}

/** `SubmitOrderConsumer` -> `SubmitOrder` (default formatter) or `submit-order` (kebab). */
function formatterName(consumer: string, kebab: boolean): string {
  const base = consumer.replace(/(Consumer|Saga|StateMachine|Activity)$/, '');
  return kebab ? base.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase() : base;
}

interface Ctx {
  readonly code: CodeText;
  readonly values: JavaValues;
  readonly endpoints: readonly Endpoint[];
}

/** The first policy of `method` in [from, to) (or outside every endpoint when `outside`), noting ones not recognised. */
function policyIn(
  ctx: Ctx,
  method: string,
  src: SourceBuilder,
  range: { from: number; to: number } | 'outside',
): RetryPolicy | undefined {
  const { code } = ctx;
  const inRange = (at: number): boolean =>
    range === 'outside'
      ? !ctx.endpoints.some((e) => e.to > e.from && at >= e.from && at < e.to)
      : at >= range.from && at < range.to;
  const calls = [...code.methodCalls(method), ...code.calls(method)]
    .filter((c) => inRange(c.at))
    .sort((a, b) => a.at - b.at);
  for (const c of calls) {
    const r = readRetryPolicy(code, c.argsAt, c.end, ctx.values);
    if (r.policy) return r.policy;
    src.note(
      'not-understood',
      code.line(r.problem?.at ?? c.at),
      r.problem?.text ??
        `${method}(...): no retry policy recognised (Immediate, Interval, Intervals, Incremental, Exponential)`,
    );
  }
  return undefined;
}

function endpointsOf(code: CodeText): { endpoints: Endpoint[]; unnamed: number[] } {
  const endpoints: Endpoint[] = [];
  const unnamed: number[] = [];
  for (const c of [...code.calls('ReceiveEndpoint'), ...code.methodCalls('ReceiveEndpoint')]) {
    const a = splitArgs(c.args);
    const name = stringLiteral(a.find((x) => stringLiteral(x) !== undefined));
    if (name === undefined) unnamed.push(c.at);
    else endpoints.push({ name, at: c.at, from: c.argsAt, to: c.end });
  }
  const kebab = /SetKebabCaseEndpointNameFormatter\s*\(/.test(code.text);
  if (endpoints.length === 0)
    // a consumer or saga definition configures the endpoint the formatter names after its type
    for (const m of code.text.matchAll(/\b(?:ConsumerDefinition|SagaDefinition)\s*<\s*(\w+)\s*>/g)) {
      const open = code.text.indexOf('{', m.index);
      endpoints.push({
        name: formatterName(m[1]!, kebab),
        at: m.index,
        from: open < 0 ? m.index : open,
        to: code.text.length,
      });
    }
  if (endpoints.length === 0)
    for (const m of code.text.matchAll(/AddConsumer\s*<\s*(\w+)/g))
      endpoints.push({ name: formatterName(m[1]!, kebab), at: m.index, from: m.index, to: m.index });
  return { endpoints: endpoints.sort((a, b) => a.at - b.at), unnamed };
}

/** One endpoint: its policies (its own, else the bus's), what it declares, its consumer. */
function readEndpoint(
  ctx: Ctx,
  e: Endpoint,
  file: string,
  out: AppReading & {
    exchanges: ExchangeDef[];
    queues: QueueDef[];
    bindings: BindingDef[];
    consumers: ConsumerSpec[];
    sources: Record<string, NodeSource>;
  },
): void {
  const { code } = ctx;
  const src = new SourceBuilder('masstransit', file);
  const own = e.to > e.from ? { from: e.from, to: e.to } : undefined;
  const policy = (method: string): RetryPolicy | undefined => (own && policyIn(ctx, method, src, own)) || undefined;
  const retry = policy('UseMessageRetry') ?? policyIn(ctx, 'UseMessageRetry', src, 'outside') ?? policy('UseRetry');
  const redelivery =
    policy('UseDelayedRedelivery') ??
    policy('UseScheduledRedelivery') ??
    policyIn(ctx, 'UseDelayedRedelivery', src, 'outside') ??
    policyIn(ctx, 'UseScheduledRedelivery', src, 'outside');
  if (retry)
    src.read(
      'UseMessageRetry',
      `${retry.form}: ${retry.delaysMs.length} retries, waits ${retry.delaysMs.join(', ')} ms`,
      code.line(retry.at),
    );
  else src.defaulted('UseMessageRetry', D.retry);
  if (redelivery)
    src.read(
      'UseDelayedRedelivery',
      `${redelivery.form}: ${redelivery.delaysMs.length} redeliveries, delays ${redelivery.delaysMs.join(', ')} ms`,
      code.line(redelivery.at),
    );
  const scope = own ?? { from: 0, to: code.text.length };
  const within = (re: RegExp): RegExpExecArray | undefined => {
    re.lastIndex = scope.from;
    const m = re.exec(code.text);
    return m && m.index < scope.to ? m : undefined;
  };
  const quorum = within(/\.SetQuorumQueue\s*\(/g) !== undefined;
  for (const c of code.methodCalls('Ignore', scope.from, scope.to))
    src.note(
      'not-understood',
      code.line(c.at),
      'r.Ignore<...>(): those exceptions are not retried; the model retries every failure',
    );
  for (const c of code.methodCalls('Handle', scope.from, scope.to))
    src.note(
      'not-understood',
      code.line(c.at),
      'r.Handle<...>(): only those exceptions are retried; the model retries every failure',
    );
  const discardCall = code.methodCalls('DiscardFaultedMessages', scope.from, scope.to)[0];
  const limit = within(/ConcurrentMessageLimit\s*=\s*(\d+)/g);
  if (limit) src.read('ConcurrentMessageLimit', limit[1]!, code.line(limit.index));
  if (discardCall)
    src.read(
      'DiscardFaultedMessages',
      'faulted messages are discarded (acked and lost), not moved to the error queue',
      code.line(discardCall.at),
    );
  const errorQ = `${e.name}_error`;
  const skippedQ = `${e.name}_skipped`;
  src.defaulted('error queue', { value: errorQ, cite: D.errorQueue.cite });
  out.exchanges.push(fanout(e.name), fanout(errorQ), fanout(skippedQ));
  out.queues.push(q(e.name, quorum ? { 'x-queue-type': 'quorum' } : {}), q(errorQ), q(skippedQ));
  out.bindings.push(toQueue(e.name, e.name), toQueue(errorQ, errorQ), toQueue(skippedQ, skippedQ));
  const fault: ConsumerAction = discardCall
    ? { kind: 'discard' }
    : {
        kind: 'republish',
        exchange: errorQ,
        routingKey: '',
        headers: { 'MT-Reason': 'fault', 'MT-Fault-ExceptionType': 'System.Exception' },
      };
  out.consumers.push({
    id: e.name,
    queue: e.name,
    label: `MassTransit endpoint ${e.name}`,
    // ConcurrentMessageLimit messages at a time (each held through its in-process retries): the simulator's prefetch
    ...(limit ? { prefetch: Number(limit[1]) } : {}),
    behaviour: { kind: 'worker', onFailure: rulesFor(e.name, retry, redelivery, fault, out) },
  });
  const line = code.line(e.at);
  out.sources[consumerNodeId(e.name)] = src.build(retry ? code.line(retry.at) : line, {
    jitter: retry?.jitter ?? false,
    ...(limit ? { concurrency: Number(limit[1]) } : {}),
  });
  for (const n of [e.name, errorQ, skippedQ]) out.sources[queueNodeId(n)] = { framework: 'masstransit', file, line };
  out.sources[exchangeNodeId(e.name)] = { framework: 'masstransit', file, line };
}

/** In-process retries, then each delayed redelivery through `<queue>_delay`, then the fault. */
function rulesFor(
  name: string,
  retry: RetryPolicy | undefined,
  redelivery: RetryPolicy | undefined,
  fault: ConsumerAction,
  out: { exchanges: ExchangeDef[]; bindings: BindingDef[] },
): Rule[] {
  const inProcess = (recover: ConsumerAction): ConsumerAction =>
    retry && retry.delaysMs.length > 0
      ? {
          kind: 'retryInProcess',
          maxAttempts: retry.delaysMs.length + 1,
          backoff: {
            initialMs: retry.delaysMs[0]!,
            multiplier: 1,
            maxMs: Math.max(...retry.delaysMs),
            delaysMs: retry.delaysMs,
          },
          recover,
        }
      : recover;
  const rules: Rule[] = [];
  if (redelivery && redelivery.delaysMs.length > 0) {
    const delayX = `${name}_delay`;
    out.exchanges.push(fanout(delayX, { 'x-delayed-type': 'fanout' }, 'x-delayed-message'));
    out.bindings.push({
      source: delayX,
      destination: name,
      destination_type: 'exchange',
      routing_key: '',
      arguments: {},
    });
    redelivery.delaysMs.forEach((d, k) =>
      rules.push({
        when: { kind: 'lt', counter: { kind: 'header', name: REDELIVERY_HEADER }, value: k + 1 },
        then: inProcess({
          kind: 'republish',
          exchange: delayX,
          routingKey: '',
          headers: { 'x-delay': d, [REDELIVERY_HEADER]: k + 1 },
        }),
      }),
    );
  }
  rules.push({ then: inProcess(fault) });
  return rules;
}

function readMassTransit(input: AppInput): AppReading {
  const code = input.code();
  const { endpoints, unnamed } = endpointsOf(code);
  if (endpoints.length === 0 && unnamed.length === 0)
    throw new AppConfigFailure({
      file: input.file.name,
      message:
        'no MassTransit receive endpoint (ReceiveEndpoint("queue", ...)), consumer or saga definition, or AddConsumer<T> found',
    });
  const ctx: Ctx = { code, values: new JavaValues(code), endpoints };
  const out = {
    framework: 'masstransit' as const,
    exchanges: [] as ExchangeDef[],
    queues: [] as QueueDef[],
    bindings: [] as BindingDef[],
    consumers: [] as ConsumerSpec[],
    publishers: [],
    sources: {} as Record<string, NodeSource>,
    notes: unnamed.map((at) => ({
      line: code.line(at),
      text: 'ReceiveEndpoint whose queue name is not a string literal: not read',
    })),
  };
  const seen = new Set<string>();
  for (const e of endpoints) {
    if (seen.has(e.name)) continue;
    seen.add(e.name);
    readEndpoint(ctx, e, input.file.name, out);
  }
  return {
    ...out,
    publishers: out.consumers.map((c) => ({
      id: `publish-${c.id}`,
      exchange: c.queue,
      routingKey: '',
      bodyPrefix: c.id,
    })),
  };
}

export const massTransit: AppFrameworkDef = {
  id: 'masstransit',
  ...FRAMEWORK_TRAITS['masstransit'],
  fileKinds: ['csharp'],
  looksFor: 'ReceiveEndpoint or a consumer definition',
  detect: (input) =>
    looksLikeMassTransit(input.file.text) &&
    /ReceiveEndpoint\s*\(|AddConsumer\s*<|(?:Consumer|Saga)Definition\s*</.test(input.file.text),
  read: readMassTransit,
  defaults: D,
};
