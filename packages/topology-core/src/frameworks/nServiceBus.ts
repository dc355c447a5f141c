/**
 * NServiceBus (C#) read as text: the endpoint (`new EndpointConfiguration("Sales")`), its error
 * queue (`SendFailedMessagesTo("error")`), the RabbitMQ transport's queue type, and
 * `Recoverability()` with `Immediate(i => i.NumberOfRetries(n))` and
 * `Delayed(d => { d.NumberOfRetries(n); d.TimeIncrease(t); })`; absent: 5 immediate retries,
 * then 3 delayed rounds of 10 s, 20 s, 30 s (docs.particular.net/nservicebus/recoverability).
 * Immediate retries return the message to the broker (basic.reject requeue=true: each counts
 * toward a quorum delivery limit); a delayed retry republishes it through the transport's delay
 * infrastructure (nsbDelayLevels.ts) with `NServiceBus.Retries`; after the last round it moves to
 * the error queue. Counts and waits go through constants (`const int Retries = 3`).
 */
import type { ConsumerAction, ConsumerSpec, Rule } from '../model/consumer.js';
import type { AmqpTable } from '../model/definitions.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { binaryDelayRoutingKey } from '../routing/binaryDelayKey.js';
import { splitArgs, stringLiteral, type Call, type CodeText } from './read/codeText.js';
import { timeSpanMs } from './read/durations.js';
import { JavaValues } from './read/javaValues.js';
import { DELIVERY_X, LEVELS, delayInfrastructure, levelName } from './read/nsbDelayLevels.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import type { AppFrameworkDef, AppInput, AppReading } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

export { levelName };

const NSB = 'https://docs.particular.net/nservicebus/recoverability/';
const D = {
  immediateRetries: { value: '5', cite: NSB },
  delayedRetries: { value: '3', cite: NSB },
  timeIncrease: { value: '10s', cite: NSB },
  errorQueue: {
    value: 'error',
    cite: 'https://docs.particular.net/nservicebus/recoverability/configure-error-handling',
  },
  delayInfrastructure: {
    value: 'nsb.v2.delay-level-27 .. 00, nsb.v2.delay-delivery',
    cite: 'https://docs.particular.net/transports/rabbitmq/delayed-delivery',
  },
} as const;

export const looksLikeNServiceBus = (text: string): boolean =>
  /\bEndpointConfiguration\b|\bRecoverability\s*\(|\bNServiceBus\b/.test(text);

interface Recoverability {
  immediate: number;
  delayed: number;
  increaseMs: number;
  /** the line the consumer is anchored at (its first setting) */
  anchor?: number;
}

/** The first `name(...)` call in [from, to), its value through `parse`; noted when it is not a value read here. */
function setting(
  code: CodeText,
  src: SourceBuilder,
  range: { from: number; to: number },
  name: string,
  parse: (e: string) => number | undefined,
): { value: number; line: number } | undefined {
  const c = code.methodCalls(name, range.from, range.to)[0];
  if (!c) return undefined;
  const v = parse(c.args);
  const line = code.line(c.at);
  if (v === undefined) {
    src.note('not-understood', line, `${name}(${c.args.trim()}): not a value read here; the default is used`);
    return undefined;
  }
  return { value: v, line };
}

/** Immediate and delayed retries: NServiceBus 6+ (`Immediate(...)`, `Delayed(...)`) or 5 (`FirstLevelRetries()`/`SecondLevelRetries()` chains). */
function readRecoverability(code: CodeText, values: JavaValues, src: SourceBuilder): Recoverability {
  const r: Recoverability = {
    immediate: Number(D.immediateRetries.value),
    delayed: Number(D.delayedRetries.value),
    increaseMs: 10_000,
  };
  const int = (e: string): number | undefined => values.number(e).n;
  const wait = (e: string): number | undefined => timeSpanMs(e) ?? values.number(e).n;
  const chain = (name: string): { from: number; to: number } | undefined => {
    const c = code.methodCalls(name).find((x) => x.args.trim() === '');
    if (!c) return undefined;
    const calls = code.chain(c.end);
    return { from: c.end, to: calls.length ? calls[calls.length - 1]!.end : c.end };
  };
  const range = (c: Call | undefined) => (c ? { from: c.argsAt, to: c.end } : undefined);
  const imm =
    range(code.methodCalls('Immediate').find((c) => /NumberOfRetries/.test(c.args))) ?? chain('FirstLevelRetries');
  const immN = imm && setting(code, src, imm, 'NumberOfRetries', int);
  if (immN) r.immediate = Number(src.read('Immediate.NumberOfRetries', String(immN.value), immN.line));
  else src.defaulted('Immediate.NumberOfRetries', D.immediateRetries);
  const del =
    range(code.methodCalls('Delayed').find((c) => /NumberOfRetries|TimeIncrease/.test(c.args))) ??
    chain('SecondLevelRetries');
  const delN = del && setting(code, src, del, 'NumberOfRetries', int);
  if (delN) r.delayed = Number(src.read('Delayed.NumberOfRetries', String(delN.value), delN.line));
  else src.defaulted('Delayed.NumberOfRetries', D.delayedRetries);
  const inc = del && setting(code, src, del, 'TimeIncrease', wait);
  for (const m of code.text.matchAll(/\.\s*(FirstLevelRetries|SecondLevelRetries)\s*\(\s*\)\s*\.\s*Disable\s*\(/g))
    src.note(
      'not-understood',
      code.line(m.index),
      `${m[1]}().Disable() elsewhere in the file is not applied: the settings above are read`,
    );
  if (inc) r.increaseMs = Number(src.read('Delayed.TimeIncrease', `${inc.value}ms`, inc.line).replace('ms', ''));
  else src.defaulted('Delayed.TimeIncrease', D.timeIncrease);
  for (const c of code.methodCalls('CustomPolicy'))
    src.note(
      'not-understood',
      code.line(c.at),
      'a custom recoverability policy decides per failure: not read (the immediate and delayed settings are used)',
    );
  r.anchor = immN?.line ?? delN?.line;
  return r;
}

/** Each round is `immediate` requeues, then a delayed retry through the levels; after the last, the error queue. */
function rounds(r: Recoverability, endpoint: string, errorQ: string, maxDelay: number): Rule[] {
  const round = r.immediate + 1;
  const onFailure: Rule[] = [];
  for (let n = 1; n <= r.delayed + 1; n++) {
    if (r.immediate > 0)
      onFailure.push({
        when: { kind: 'lt', counter: { kind: 'attempt' }, value: n * round },
        then: { kind: 'requeue', via: 'reject' },
      });
    if (n > r.delayed) break;
    const seconds = Math.min(maxDelay, Math.round((n * r.increaseMs) / 1000));
    const start = Math.floor(Math.log2(Math.max(1, seconds)));
    const retry: ConsumerAction = {
      kind: 'republish',
      // the transport sends a new message with the NServiceBus headers, not the broker's x-death
      copyHeaders: false,
      exchange: levelName(start),
      routingKey: binaryDelayRoutingKey(seconds, LEVELS, endpoint),
      headers: { 'NServiceBus.Retries': n, 'NServiceBus.Transport.RabbitMQ.DelayInSeconds': seconds },
    };
    onFailure.push({ when: { kind: 'lt', counter: { kind: 'attempt' }, value: n * round + 1 }, then: retry });
  }
  onFailure.push({
    then: {
      kind: 'republish',
      exchange: '',
      routingKey: errorQ,
      headers: { 'NServiceBus.FailedQ': endpoint, 'NServiceBus.ExceptionInfo.ExceptionType': 'System.Exception' },
    },
  });
  return onFailure;
}

function readNServiceBus(input: AppInput): AppReading {
  const code = input.code();
  const file = input.file.name;
  const ctor = code.calls('new EndpointConfiguration')[0];
  const configures = /\.\s*(?:Recoverability|FirstLevelRetries|SecondLevelRetries)\s*\(/.exec(code.text);
  if (!ctor && !configures)
    throw new AppConfigFailure({
      file,
      message: 'no NServiceBus endpoint (new EndpointConfiguration("Name")) or recoverability settings found',
    });
  const values = new JavaValues(code);
  // a snippet that configures an endpoint it is given: the endpoint's queue is a stand-in
  const ctorName = ctor
    ? (stringLiteral(splitArgs(ctor.args)[0]) ?? values.string(splitArgs(ctor.args)[0] ?? '').s)
    : undefined;
  const endpoint = ctorName ?? 'endpoint';
  const src = new SourceBuilder('nservicebus', file);
  const errCall = code.calls('SendFailedMessagesTo')[0] ?? code.methodCalls('SendFailedMessagesTo')[0];
  const errName = errCall
    ? (stringLiteral(splitArgs(errCall.args)[0]) ?? values.string(splitArgs(errCall.args)[0] ?? '').s)
    : undefined;
  if (errCall && errName === undefined)
    src.note(
      'not-understood',
      code.line(errCall.at),
      'SendFailedMessagesTo: the queue name is not a string or a constant; "error" is used',
    );
  const errorQ =
    errName !== undefined
      ? src.read('SendFailedMessagesTo', errName, code.line(errCall!.at))
      : src.defaulted('error queue', D.errorQueue);
  const r = readRecoverability(code, values, src);
  const classic =
    /QueueType\.Classic/.test(code.text) ||
    (/UseConventionalRoutingTopology\s*\(/.test(code.text) && !/QueueType\.Quorum/.test(code.text));
  const infra = delayInfrastructure();
  const maxDelay = 2 ** (infra.top + 1) - 1;
  const line = code.line(ctor ? ctor.at : configures!.index);
  const consumer: ConsumerSpec = {
    id: endpoint,
    queue: endpoint,
    label: `NServiceBus endpoint ${endpoint}`,
    behaviour: { kind: 'worker', onFailure: rounds(r, endpoint, errorQ, maxDelay) },
  };
  const queueArgs: AmqpTable = classic ? {} : { 'x-queue-type': 'quorum' };
  const sources: Record<string, NodeSource> = {
    [consumerNodeId(endpoint)]: src.build(r.anchor ?? line),
    [queueNodeId(endpoint)]: { framework: 'nservicebus', file, line },
    [queueNodeId(errorQ)]: { framework: 'nservicebus', file, line: errCall ? code.line(errCall.at) : line },
    [exchangeNodeId(DELIVERY_X)]: {
      framework: 'nservicebus',
      file,
      line,
      settings: [{ key: 'delay infrastructure', value: D.delayInfrastructure.value, cite: D.delayInfrastructure.cite }],
    },
  };
  return {
    framework: 'nservicebus',
    exchanges: [
      { name: endpoint, type: 'fanout', durable: true, auto_delete: false, internal: false, arguments: {} },
      ...infra.exchanges,
    ],
    queues: [
      { name: endpoint, durable: true, auto_delete: false, arguments: queueArgs },
      { name: errorQ, durable: true, auto_delete: false, arguments: queueArgs },
      ...infra.queues,
    ],
    bindings: [
      { source: endpoint, destination: endpoint, destination_type: 'queue', routing_key: '', arguments: {} },
      {
        source: DELIVERY_X,
        destination: endpoint,
        destination_type: 'queue',
        routing_key: `#.${endpoint}`,
        arguments: {},
      },
      ...infra.bindings,
    ],
    consumers: [consumer],
    publishers: [{ id: `send-${endpoint}`, exchange: endpoint, routingKey: '', bodyPrefix: endpoint }],
    sources,
    notes: [
      ...(ctorName !== undefined
        ? []
        : [
            {
              line,
              text: 'no new EndpointConfiguration("Name") here: the endpoint\'s queue is a stand-in named "endpoint"',
            },
          ]),
      {
        line,
        text: `delay levels ${infra.top + 1}..${LEVELS - 1} (TTL above 2^32-1 ms) are not declared here; delays up to ${maxDelay} s are modelled`,
      },
    ],
  };
}

export const nServiceBus: AppFrameworkDef = {
  id: 'nservicebus',
  ...FRAMEWORK_TRAITS['nservicebus'],
  fileKinds: ['csharp'],
  looksFor: 'EndpointConfiguration or Recoverability()',
  detect: (input) =>
    looksLikeNServiceBus(input.file.text) &&
    /EndpointConfiguration\s*\(|\.\s*(?:Recoverability|FirstLevelRetries|SecondLevelRetries)\s*\(/.test(
      input.file.text,
    ),
  read: readNServiceBus,
  defaults: D,
};
