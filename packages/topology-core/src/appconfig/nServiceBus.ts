/**
 * NServiceBus (C#) read as text: the endpoint (`new EndpointConfiguration("Sales")`), its error
 * queue (`SendFailedMessagesTo("error")`), the RabbitMQ transport's queue type, and
 * `Recoverability()` with `Immediate(i => i.NumberOfRetries(n))` and
 * `Delayed(d => { d.NumberOfRetries(n); d.TimeIncrease(t); })`; absent: 5 immediate retries,
 * then 3 delayed rounds of 10 s, 20 s, 30 s (docs.particular.net/nservicebus/recoverability).
 * Immediate retries return the message to the broker (basic.reject requeue=true: each counts
 * toward a quorum delivery limit); a delayed retry republishes it through the transport's delay
 * infrastructure (28 binary levels of TTL queues, docs transports/rabbitmq/delayed-delivery)
 * with `NServiceBus.Retries`; after the last round it moves to the error queue.
 */
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec, Rule } from '../model/consumer.js';
import type { NodeSource } from '../model/source.js';
import { MAX_TTL_MS } from '../model/arguments.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { binaryDelayRoutingKey } from '../templates/binaryDelay.js';
import { blankComments, findCalls, findMethodCalls, intLiteral, lineAt, splitArgs, stringLiteral } from './codeText.js';
import { DEFAULTS } from './defaults.js';
import { timeSpanMs } from './durations.js';
import { SourceBuilder } from './sourceBuilder.js';
import { AppConfigFailure, type AppFile, type AppReading } from './types.js';

const LEVELS = 28;
const DELIVERY_X = 'nsb.v2.delay-delivery';
export const levelName = (level: number): string => `nsb.v2.delay-level-${String(level).padStart(2, '0')}`;
const D = DEFAULTS.nServiceBus;

export const looksLikeNServiceBus = (text: string): boolean =>
  /\bEndpointConfiguration\b|\bRecoverability\s*\(|\bNServiceBus\b/.test(text);

/** The delay infrastructure: level N is a topic exchange and a quorum queue with TTL 2^N s (levels whose TTL RabbitMQ accepts). */
function delayInfrastructure(): { exchanges: ExchangeDef[]; queues: QueueDef[]; bindings: BindingDef[]; top: number } {
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [];
  const bindings: BindingDef[] = [];
  // a TTL above 2^32-1 ms is refused by the model (and is 49+ days): levels above are left out
  let top = LEVELS - 1;
  while (2 ** top * 1000 > MAX_TTL_MS) top--;
  for (let level = top; level >= 0; level--) {
    const name = levelName(level);
    exchanges.push({ name, type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} });
    queues.push({
      name,
      durable: true,
      auto_delete: false,
      arguments: {
        'x-queue-type': 'quorum',
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
        'x-message-ttl': 2 ** level * 1000,
        'x-dead-letter-exchange': level > 0 ? levelName(level - 1) : DELIVERY_X,
      },
    });
    const skip = '*.'.repeat(LEVELS - 1 - level);
    bindings.push({
      source: name,
      destination: name,
      destination_type: 'queue',
      routing_key: `${skip}1.#`,
      arguments: {},
    });
    if (level > 0)
      bindings.push({
        source: name,
        destination: levelName(level - 1),
        destination_type: 'exchange',
        routing_key: `${skip}0.#`,
        arguments: {},
      });
  }
  exchanges.push({
    name: DELIVERY_X,
    type: 'topic',
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: {},
  });
  bindings.push({
    source: levelName(0),
    destination: DELIVERY_X,
    destination_type: 'exchange',
    routing_key: `${'*.'.repeat(LEVELS - 1)}0.#`,
    arguments: {},
  });
  return { exchanges, queues, bindings, top };
}

/** `NumberOfRetries(n)` / `TimeIncrease(t)` inside a lambda's text. */
function readCall(
  body: string,
  name: string,
  parse: (e: string) => number | undefined,
  offset: number,
  src: SourceBuilder,
  full: string,
): { value: number; line: number } | undefined {
  const c = findMethodCalls(body, name)[0];
  if (!c) return undefined;
  const v = parse(c.args);
  const line = lineAt(full, offset + c.at);
  if (v === undefined) {
    src.note('not-understood', line, `${name}(${c.args.trim()}): not a literal; the default is used`);
    return undefined;
  }
  return { value: v, line };
}

export function readNServiceBus(file: AppFile): AppReading {
  const text = blankComments(file.text);
  const ctor = /new\s+EndpointConfiguration\s*\(\s*("(?:[^"\\]|\\.)*")\s*\)/.exec(text);
  const configures = /\.\s*(?:Recoverability|FirstLevelRetries|SecondLevelRetries)\s*\(/.test(text);
  if (!ctor && !configures)
    throw new AppConfigFailure({
      file: file.name,
      message: 'no NServiceBus endpoint (new EndpointConfiguration("Name")) or recoverability settings found',
    });
  // a snippet that configures an endpoint it is given: the endpoint's queue is a stand-in
  const endpoint = ctor ? stringLiteral(ctor[1])! : 'endpoint';
  const src = new SourceBuilder('nservicebus', file.name);
  const errCall = findCalls(text, 'SendFailedMessagesTo')[0] ?? findMethodCalls(text, 'SendFailedMessagesTo')[0];
  const errName = errCall ? stringLiteral(splitArgs(errCall.args)[0]) : undefined;
  if (errCall && errName === undefined)
    src.note(
      'not-understood',
      lineAt(text, errCall.at),
      'SendFailedMessagesTo: the queue name is not a string literal; "error" is used',
    );
  const errorQ =
    errName !== undefined
      ? src.read('SendFailedMessagesTo', errName, lineAt(text, errCall!.at))
      : src.defaulted('error queue', D.errorQueue);

  let immediate = Number(D.immediateRetries.value);
  let delayed = Number(D.delayedRetries.value);
  let increaseMs = 10_000;
  const argsAt = (c: { end: number; args: string }): number => c.end - 1 - c.args.length;
  // NServiceBus 6+: Immediate(...)/Delayed(...); NServiceBus 5: FirstLevelRetries()/SecondLevelRetries() chains
  const chain = (name: string): { args: string; at: number; end: number; name: string } | undefined => {
    const m = new RegExp(`\\.\\s*${name}\\s*\\(\\s*\\)([^;]*);`).exec(text);
    return m ? { name, args: m[1]!, at: m.index, end: m.index + m[0].length } : undefined;
  };
  const imm =
    findMethodCalls(text, 'Immediate').find((c) => /NumberOfRetries/.test(c.args)) ?? chain('FirstLevelRetries');
  const immN =
    imm &&
    readCall(
      imm.args,
      'NumberOfRetries',
      intLiteral,
      imm.name === 'FirstLevelRetries' ? text.indexOf(imm.args, imm.at) : argsAt(imm),
      src,
      text,
    );
  if (immN) immediate = Number(src.read('Immediate.NumberOfRetries', String(immN.value), immN.line));
  else src.defaulted('Immediate.NumberOfRetries', D.immediateRetries);
  const del =
    findMethodCalls(text, 'Delayed').find((c) => /NumberOfRetries|TimeIncrease/.test(c.args)) ??
    chain('SecondLevelRetries');
  const delAt = del ? (del.name === 'SecondLevelRetries' ? text.indexOf(del.args, del.at) : argsAt(del)) : 0;
  const delN = del && readCall(del.args, 'NumberOfRetries', intLiteral, delAt, src, text);
  if (delN) delayed = Number(src.read('Delayed.NumberOfRetries', String(delN.value), delN.line));
  else src.defaulted('Delayed.NumberOfRetries', D.delayedRetries);
  const inc = del && readCall(del.args, 'TimeIncrease', timeSpanMs, delAt, src, text);
  for (const m of text.matchAll(/\.\s*(FirstLevelRetries|SecondLevelRetries)\s*\(\s*\)\s*\.\s*Disable\s*\(/g))
    src.note(
      'not-understood',
      lineAt(text, m.index),
      `${m[1]}().Disable() elsewhere in the file is not applied: the settings above are read`,
    );
  if (inc) increaseMs = Number(src.read('Delayed.TimeIncrease', `${inc.value}ms`, inc.line).replace('ms', ''));
  else src.defaulted('Delayed.TimeIncrease', D.timeIncrease);
  for (const c of findMethodCalls(text, 'CustomPolicy'))
    src.note(
      'not-understood',
      lineAt(text, c.at),
      'a custom recoverability policy decides per failure: not read (the immediate and delayed settings are used)',
    );

  const classic =
    /QueueType\.Classic/.test(text) ||
    (/UseConventionalRoutingTopology\s*\(/.test(text) && !/QueueType\.Quorum/.test(text));
  const infra = delayInfrastructure();
  const maxDelay = 2 ** (infra.top + 1) - 1;
  // the rules by the consumer's own count of deliveries: each round is `immediate` requeues, then a delayed retry
  const round = immediate + 1;
  const onFailure: Rule[] = [];
  for (let r = 1; r <= delayed + 1; r++) {
    if (immediate > 0)
      onFailure.push({
        when: { kind: 'lt', counter: { kind: 'attempt' }, value: r * round },
        then: { kind: 'requeue', via: 'reject' },
      });
    if (r > delayed) break;
    const seconds = Math.min(maxDelay, Math.round((r * increaseMs) / 1000));
    const start = Math.floor(Math.log2(Math.max(1, seconds)));
    const retry: ConsumerAction = {
      kind: 'republish',
      // the transport sends a new message with the NServiceBus headers, not the broker's x-death
      copyHeaders: false,
      exchange: levelName(start),
      routingKey: binaryDelayRoutingKey(seconds, LEVELS, endpoint),
      headers: { 'NServiceBus.Retries': r, 'NServiceBus.Transport.RabbitMQ.DelayInSeconds': seconds },
    };
    onFailure.push({ when: { kind: 'lt', counter: { kind: 'attempt' }, value: r * round + 1 }, then: retry });
  }
  onFailure.push({
    then: {
      kind: 'republish',
      exchange: '',
      routingKey: errorQ,
      headers: { 'NServiceBus.FailedQ': endpoint, 'NServiceBus.ExceptionInfo.ExceptionType': 'System.Exception' },
    },
  });

  const line = ctor
    ? lineAt(text, ctor.index)
    : lineAt(text, /\.\s*(?:Recoverability|FirstLevelRetries|SecondLevelRetries)\s*\(/.exec(text)!.index);
  const consumer: ConsumerSpec = {
    id: endpoint,
    queue: endpoint,
    label: `NServiceBus endpoint ${endpoint}`,
    behaviour: { kind: 'worker', onFailure },
  };
  const queues: QueueDef[] = [
    { name: endpoint, durable: true, auto_delete: false, arguments: classic ? {} : { 'x-queue-type': 'quorum' } },
    { name: errorQ, durable: true, auto_delete: false, arguments: classic ? {} : { 'x-queue-type': 'quorum' } },
    ...infra.queues,
  ];
  const sources: Record<string, NodeSource> = {
    [consumerNodeId(endpoint)]: src.build(immN?.line ?? delN?.line ?? line),
    [queueNodeId(endpoint)]: { framework: 'nservicebus', file: file.name, line },
    [queueNodeId(errorQ)]: {
      framework: 'nservicebus',
      file: file.name,
      line: errCall ? lineAt(text, errCall.at) : line,
    },
    [exchangeNodeId(DELIVERY_X)]: {
      framework: 'nservicebus',
      file: file.name,
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
    queues,
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
      ...(ctor
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
