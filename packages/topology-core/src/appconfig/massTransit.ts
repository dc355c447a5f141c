/**
 * MassTransit (C#) read as text. Per receive endpoint (`ReceiveEndpoint("name", e => ...)`, or a
 * consumer's endpoint named by the endpoint name formatter when only `AddConsumer<T>` and
 * `ConfigureEndpoints` are used): `UseMessageRetry` (in-process retries, the message held),
 * then `UseDelayedRedelivery` / `UseScheduledRedelivery` (the message republished with a delay
 * through the delayed-message exchange `<queue>_delay` and a `MT-Redelivery-Count` header), then
 * the fault: the message moves to `<queue>_error` with MT-Fault-* headers. A policy written at the
 * bus level (`cfg.UseMessageRetry`, `AddConfigureEndpointsCallback`) applies to every endpoint.
 * What MassTransit declares per endpoint (docs: concepts/exceptions, transports/rabbitmq): the
 * fanout exchange and queue `<queue>`, and `<queue>_error` and `<queue>_skipped`, each a fanout
 * exchange bound to its queue.
 */
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec, Rule } from '../model/consumer.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { blankComments, findCalls, findMethodCalls, lineAt, splitArgs, stringLiteral, type Call } from './codeText.js';
import { DEFAULTS } from './defaults.js';
import { readRetryPolicy, type RetryPolicy } from './retryPolicy.js';
import { SourceBuilder } from './sourceBuilder.js';
import { AppConfigFailure, type AppFile, type AppReading } from './types.js';

export const REDELIVERY_HEADER = 'MT-Redelivery-Count';

const fanout = (
  name: string,
  args: ExchangeDef['arguments'] = {},
  type: ExchangeDef['type'] = 'fanout',
): ExchangeDef => ({ name, type, durable: true, auto_delete: false, internal: false, arguments: args });
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
  /** the configuration lambda's text and where it starts ('' for a formatter-named endpoint) */
  readonly body: string;
  readonly bodyAt: number;
}

/** `SubmitOrderConsumer` -> `SubmitOrder` (default formatter) or `submit-order` (kebab). */
function formatterName(consumer: string, kebab: boolean): string {
  const base = consumer.replace(/(Consumer|Saga|StateMachine|Activity)$/, '');
  return kebab ? base.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase() : base;
}

function policyIn(
  text: string,
  offset: number,
  method: string,
  src: SourceBuilder,
  full: string,
): RetryPolicy | undefined {
  for (const c of findMethodCalls(text, method)
    .concat(findCalls(text, method).filter((x) => !text.slice(Math.max(0, x.at - 1), x.at).includes('.')))
    .sort((a, b) => a.at - b.at)) {
    const r = readRetryPolicy(c.args, offset + c.at + c.name.length + 1);
    if (r.policy) return r.policy;
    const line = lineAt(full, r.problem?.at ?? offset + c.at);
    src.note(
      'not-understood',
      line,
      r.problem?.text ??
        `${method}(...): no retry policy recognised (Immediate, Interval, Intervals, Incremental, Exponential)`,
    );
  }
  return undefined;
}

export function readMassTransit(file: AppFile): AppReading {
  const text = blankComments(file.text);
  const endpoints: Endpoint[] = findCalls(text, 'ReceiveEndpoint').flatMap((c: Call) => {
    const a = splitArgs(c.args);
    const name = stringLiteral(a.find((x) => stringLiteral(x) !== undefined));
    if (name === undefined) return [];
    const lambda = a.find((x) => x.includes('=>')) ?? '';
    return [{ name, at: c.at, body: lambda, bodyAt: c.at + c.args.indexOf(lambda) + c.name.length + 1 }];
  });
  const unnamed = findCalls(text, 'ReceiveEndpoint').filter(
    (c) => stringLiteral(splitArgs(c.args).find((x) => stringLiteral(x) !== undefined)) === undefined,
  );
  const kebab = /SetKebabCaseEndpointNameFormatter\s*\(/.test(text);
  if (endpoints.length === 0)
    // a consumer or saga definition configures the endpoint the formatter names after its type
    for (const m of text.matchAll(/\b(?:ConsumerDefinition|SagaDefinition)\s*<\s*(\w+)\s*>/g)) {
      const open = text.indexOf('{', m.index!);
      const body = open >= 0 ? text.slice(open) : '';
      endpoints.push({ name: formatterName(m[1]!, kebab), at: m.index!, body, bodyAt: open });
    }
  if (endpoints.length === 0) {
    // consumers on endpoints named by the endpoint name formatter
    for (const m of text.matchAll(/AddConsumer\s*<\s*(\w+)/g))
      endpoints.push({ name: formatterName(m[1]!, kebab), at: m.index!, body: '', bodyAt: m.index! });
  }
  if (endpoints.length === 0 && unnamed.length === 0)
    throw new AppConfigFailure({
      file: file.name,
      message:
        'no MassTransit receive endpoint (ReceiveEndpoint("queue", ...)), consumer or saga definition, or AddConsumer<T> found',
    });
  const fileNotes = unnamed.map((c) => ({
    line: lineAt(text, c.at),
    text: 'ReceiveEndpoint whose queue name is not a string literal: not read',
  }));

  // bus-level policies: outside every endpoint body
  let outside = text;
  for (const e of endpoints)
    if (e.body)
      outside = outside.slice(0, e.bodyAt) + ' '.repeat(e.body.length) + outside.slice(e.bodyAt + e.body.length);
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [];
  const bindings: BindingDef[] = [];
  const consumers: ConsumerSpec[] = [];
  const sources: Record<string, NodeSource> = {};
  const seen = new Set<string>();
  for (const e of endpoints) {
    if (seen.has(e.name)) continue;
    seen.add(e.name);
    const src = new SourceBuilder('masstransit', file.name);
    const retry =
      (e.body && policyIn(e.body, e.bodyAt, 'UseMessageRetry', src, text)) ||
      policyIn(outside, 0, 'UseMessageRetry', src, text) ||
      (e.body && policyIn(e.body, e.bodyAt, 'UseRetry', src, text)) ||
      undefined;
    const redelivery =
      (e.body &&
        (policyIn(e.body, e.bodyAt, 'UseDelayedRedelivery', src, text) ??
          policyIn(e.body, e.bodyAt, 'UseScheduledRedelivery', src, text))) ||
      policyIn(outside, 0, 'UseDelayedRedelivery', src, text) ||
      policyIn(outside, 0, 'UseScheduledRedelivery', src, text) ||
      undefined;
    if (retry)
      src.read(
        'UseMessageRetry',
        `${retry.form}: ${retry.delaysMs.length} retries, waits ${retry.delaysMs.join(', ')} ms`,
        lineAt(text, retry.at),
      );
    else src.defaulted('UseMessageRetry', DEFAULTS.massTransit.retry);
    if (redelivery)
      src.read(
        'UseDelayedRedelivery',
        `${redelivery.form}: ${redelivery.delaysMs.length} redeliveries, delays ${redelivery.delaysMs.join(', ')} ms`,
        lineAt(text, redelivery.at),
      );
    const quorum = e.body ? /\.SetQuorumQueue\s*\(/.test(e.body) : /\.SetQuorumQueue\s*\(/.test(outside);
    const scope = e.body || outside;
    const at0 = e.body ? e.bodyAt : 0;
    for (const c of findMethodCalls(scope, 'Ignore'))
      src.note(
        'not-understood',
        lineAt(text, at0 + c.at),
        'r.Ignore<...>(): those exceptions are not retried; the model retries every failure',
      );
    for (const c of findMethodCalls(scope, 'Handle'))
      src.note(
        'not-understood',
        lineAt(text, at0 + c.at),
        'r.Handle<...>(): only those exceptions are retried; the model retries every failure',
      );
    const discardCall = findMethodCalls(scope, 'DiscardFaultedMessages')[0];
    const limit = /ConcurrentMessageLimit\s*=\s*(\d+)/.exec(scope);
    if (limit) src.read('ConcurrentMessageLimit', limit[1]!, lineAt(text, at0 + limit.index));
    if (discardCall)
      src.read(
        'DiscardFaultedMessages',
        'faulted messages are discarded (acked and lost), not moved to the error queue',
        lineAt(text, at0 + discardCall.at),
      );
    const errorQ = `${e.name}_error`;
    const skippedQ = `${e.name}_skipped`;
    src.defaulted('error queue', { value: errorQ, cite: DEFAULTS.massTransit.errorQueue.cite });
    exchanges.push(fanout(e.name), fanout(errorQ), fanout(skippedQ));
    queues.push(q(e.name, quorum ? { 'x-queue-type': 'quorum' } : {}), q(errorQ), q(skippedQ));
    bindings.push(toQueue(e.name, e.name), toQueue(errorQ, errorQ), toQueue(skippedQ, skippedQ));
    const fault: ConsumerAction = discardCall
      ? { kind: 'discard' }
      : {
          kind: 'republish',
          exchange: errorQ,
          routingKey: '',
          headers: { 'MT-Reason': 'fault', 'MT-Fault-ExceptionType': 'System.Exception' },
        };
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
      const delayX = `${e.name}_delay`;
      exchanges.push(fanout(delayX, { 'x-delayed-type': 'fanout' }, 'x-delayed-message'));
      bindings.push({
        source: delayX,
        destination: e.name,
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
    const id = e.name;
    consumers.push({
      id,
      queue: e.name,
      label: `MassTransit endpoint ${e.name}`,
      behaviour: { kind: 'worker', onFailure: rules },
    });
    const line = lineAt(text, e.at);
    sources[consumerNodeId(id)] = src.build(retry ? lineAt(text, retry.at) : line, {
      jitter: retry?.jitter ?? false,
      ...(limit ? { concurrency: Number(limit[1]) } : {}),
    });
    for (const n of [e.name, errorQ, skippedQ])
      sources[queueNodeId(n)] = { framework: 'masstransit', file: file.name, line };
    sources[exchangeNodeId(e.name)] = { framework: 'masstransit', file: file.name, line };
  }
  return {
    framework: 'masstransit',
    exchanges,
    queues,
    bindings,
    consumers,
    publishers: consumers.map((c) => ({ id: `publish-${c.id}`, exchange: c.queue, routingKey: '', bodyPrefix: c.id })),
    sources,
    notes: fileNotes,
  };
}
