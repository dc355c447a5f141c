/**
 * Spring AMQP Java configuration read as text: the retry advice
 * (`RetryInterceptorBuilder.stateless()|stateful()` with `.maxAttempts(n)`,
 * `.backOffOptions(initial, multiplier, max)` and `.recoverer(new RepublishMessageRecoverer(t, "x", "rk")
 * | new RejectAndDontRequeueRecoverer() | new ImmediateRequeueMessageRecoverer())`), the container
 * factory (`setDefaultRequeueRejected`, `setPrefetchCount`, `setAcknowledgeMode`), the declared
 * objects (`new Queue("q", ...)`, `QueueBuilder.durable("q").deadLetterExchange(..)...build()`,
 * `new DirectExchange|TopicExchange|FanoutExchange("x")`, `BindingBuilder.bind(q()).to(x()).with("rk")`)
 * and the listeners (`@RabbitListener(queues = ...)`). String constants (`static final String X = "..."`)
 * are resolved; anything else is named as not understood.
 */
import type { AmqpTable, BindingDef, ExchangeDef, QueueDef, Topology } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { assumedConsumers } from '../lint/assumedConsumers.js';
import {
  blankComments,
  findCalls,
  findMethodCalls,
  intLiteral,
  lineAt,
  numberLiteral,
  splitArgs,
  stringLiteral,
} from './codeText.js';
import { DEFAULTS } from './defaults.js';
import { SourceBuilder } from './sourceBuilder.js';
import { springListenerBehaviour, type SpringRecoverer } from './springListener.js';
import { AppConfigFailure, type AppFile, type AppReading } from './types.js';

export const looksLikeSpringAmqpJava = (text: string): boolean =>
  /RetryInterceptorBuilder|@RabbitListener|RabbitListenerContainerFactory|org\.springframework\.amqp/.test(text);

const D = DEFAULTS.springBoot;

export function readSpringAmqpJava(file: AppFile): AppReading {
  const text = blankComments(file.text);
  const src = new SourceBuilder('spring-amqp', file.name);
  const consts = new Map<string, string>();
  for (const m of text.matchAll(/\bString\s+(\w+)\s*=\s*("(?:[^"\\]|\\.)*")\s*;/g))
    consts.set(m[1]!, stringLiteral(m[2])!);
  const str = (e: string | undefined): string | undefined => {
    if (e === undefined) return undefined;
    const lit = stringLiteral(e);
    if (lit !== undefined) return lit;
    const id = /(?:\w+\.)?(\w+)\s*$/.exec(e.trim())?.[1];
    return id !== undefined ? consts.get(id) : undefined;
  };

  // declared objects; a @Bean method's name stands for the object it returns
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [];
  const beanName = new Map<string, string>();
  const beanAt = (offset: number): string | undefined => {
    const before = text.slice(0, offset);
    const m = [...before.matchAll(/\b(\w+)\s*\([^()]*\)\s*\{/g)].at(-1);
    return m?.[1];
  };
  for (const [kind, type] of [
    ['DirectExchange', 'direct'],
    ['TopicExchange', 'topic'],
    ['FanoutExchange', 'fanout'],
    ['HeadersExchange', 'headers'],
  ] as const)
    for (const c of findCalls(text, `new ${kind}`)) {
      const name = str(splitArgs(c.args)[0]);
      if (name === undefined) {
        src.note(
          'not-understood',
          lineAt(text, c.at),
          `new ${kind}(${c.args.trim().slice(0, 60)}): the name is not a string literal or constant`,
        );
        continue;
      }
      exchanges.push({ name, type, durable: true, auto_delete: false, internal: false, arguments: {} });
      const b = beanAt(c.at);
      if (b) beanName.set(b, name);
    }
  const addQueue = (name: string, args: AmqpTable, at: number): void => {
    queues.push({ name, durable: true, auto_delete: false, arguments: args });
    const b = beanAt(at);
    if (b) beanName.set(b, name);
  };
  for (const c of findCalls(text, 'new Queue')) {
    const a = splitArgs(c.args);
    const name = str(a[0]);
    if (name === undefined)
      src.note(
        'not-understood',
        lineAt(text, c.at),
        `new Queue(${c.args.trim().slice(0, 60)}): the name is not a string literal or constant`,
      );
    else addQueue(name, {}, c.at);
    if (a.length > 4)
      src.note(
        'not-understood',
        lineAt(text, c.at),
        `new Queue("${name}", ..., arguments): the arguments map is not read`,
      );
  }
  for (const m of text.matchAll(
    /QueueBuilder\s*\.\s*(?:durable|nonDurable)\s*\(([^)]*)\)([\s\S]*?)\.build\s*\(\s*\)/g,
  )) {
    const name = str(m[1]);
    if (name === undefined) {
      src.note('not-understood', lineAt(text, m.index!), 'QueueBuilder: the name is not a string literal or constant');
      continue;
    }
    const chain = m[2]!;
    const args: Record<string, AmqpTable[string]> = {};
    const one = (method: string): string | undefined => findMethodCalls(chain, method)[0]?.args;
    const dlx = one('deadLetterExchange');
    if (dlx !== undefined) args['x-dead-letter-exchange'] = str(dlx) ?? '';
    const dlrk = one('deadLetterRoutingKey');
    if (dlrk !== undefined) args['x-dead-letter-routing-key'] = str(dlrk) ?? '';
    const ttl = intLiteral(one('ttl'));
    if (ttl !== undefined) args['x-message-ttl'] = ttl;
    if (/\.\s*quorum\s*\(\s*\)/.test(chain)) args['x-queue-type'] = 'quorum';
    const limit = intLiteral(one('deliveryLimit'));
    if (limit !== undefined) args['x-delivery-limit'] = limit;
    const maxLen = intLiteral(one('maxLength'));
    if (maxLen !== undefined) args['x-max-length'] = maxLen;
    for (const w of findMethodCalls(chain, 'withArgument')) {
      const [k, v] = splitArgs(w.args);
      const key = str(k);
      const n = intLiteral(v);
      if (key !== undefined) args[key] = n ?? str(v) ?? '';
    }
    addQueue(name, args, m.index!);
  }
  const bindings: BindingDef[] = [];
  for (const m of text.matchAll(
    /BindingBuilder\s*\.\s*bind\s*\(([^()]*(?:\(\s*\))?)\)\s*\.\s*to\s*\(([^()]*(?:\(\s*\))?)\)(?:\s*\.\s*with\s*\(([^()]*)\))?/g,
  )) {
    const ref = (e: string): string | undefined => {
      const id = /(\w+)\s*(?:\(\s*\))?\s*$/.exec(e.trim())?.[1];
      return id !== undefined
        ? (beanName.get(id) ??
            (exchanges.some((x) => x.name === id) || queues.some((q) => q.name === id) ? id : undefined))
        : undefined;
    };
    const q = ref(m[1]!);
    const x = ref(m[2]!);
    if (q === undefined || x === undefined) {
      src.note(
        'not-understood',
        lineAt(text, m.index!),
        `BindingBuilder.bind(${m[1]}).to(${m[2]}): the queue or exchange is not a bean read here`,
      );
      continue;
    }
    const rk = m[3] !== undefined ? (str(m[3]) ?? '') : '';
    bindings.push({
      source: x,
      destination: q,
      destination_type: queues.some((y) => y.name === q) ? 'queue' : 'exchange',
      routing_key: rk,
      arguments: {},
    });
  }

  // the retry advice and the container factory
  const builder = /RetryInterceptorBuilder\s*\.\s*(stateless|stateful)\s*\(\s*\)/.exec(text);
  const chainEnd = builder ? text.indexOf(';', builder.index) : -1;
  const chain = builder ? text.slice(builder.index, chainEnd < 0 ? text.length : chainEnd) : '';
  const at = (sub: string | undefined): number =>
    builder && sub ? lineAt(text, builder.index + chain.indexOf(sub)) : 1;
  let maxAttempts = Number(D.maxAttempts.value);
  const backoff = { initialMs: 1000, multiplier: 1, maxMs: 10000 };
  let recoverer: SpringRecoverer = { kind: 'reject' };
  if (builder) {
    src.read('RetryInterceptorBuilder', builder[1]!, lineAt(text, builder.index));
    const ma = findMethodCalls(chain, 'maxAttempts')[0];
    if (ma) {
      const n = intLiteral(str(ma.args) ?? ma.args) ?? intLiteral(ma.args);
      if (n === undefined)
        src.note(
          'not-understood',
          at('maxAttempts'),
          `maxAttempts(${ma.args.trim()}): not a literal; the default ${D.maxAttempts.value} is used`,
        );
      else maxAttempts = Number(src.read('maxAttempts', String(n), at('maxAttempts')));
    } else src.defaulted('maxAttempts', D.maxAttempts);
    const bo = findMethodCalls(chain, 'backOffOptions')[0];
    if (bo) {
      const [i, mul, mx] = splitArgs(bo.args).map((x) => numberLiteral(x));
      if (i === undefined || mul === undefined || mx === undefined)
        src.note(
          'not-understood',
          at('backOffOptions'),
          `backOffOptions(${bo.args.trim()}): not literals; Spring Retry's defaults are used`,
        );
      else {
        Object.assign(backoff, { initialMs: i, multiplier: Math.max(1, mul), maxMs: Math.max(i, mx) });
        src.read('backOffOptions', `${i}, ${mul}, ${mx}`, at('backOffOptions'));
      }
    } else {
      Object.assign(backoff, { initialMs: 0, multiplier: 1, maxMs: 0 });
      src.defaulted('backOffOptions', DEFAULTS.springAmqp.builderBackOff);
    }
    for (const other of ['retryPolicy', 'backOffPolicy', 'retryOperations'])
      if (findMethodCalls(chain, other)[0])
        src.note('not-understood', at(other), `.${other}(...): a custom policy is not read`);
    const rec = findMethodCalls(chain, 'recoverer')[0];
    const recText = rec?.args ?? '';
    if (/RepublishMessageRecoverer/.test(recText)) {
      const args = splitArgs(/RepublishMessageRecoverer\s*\(([\s\S]*)\)/.exec(recText)?.[1] ?? '');
      const x = str(args[1]);
      if (x === undefined)
        src.note(
          'not-understood',
          at('recoverer'),
          'RepublishMessageRecoverer: the exchange is not a literal or constant',
        );
      else
        recoverer = {
          kind: 'republish',
          exchange: x,
          ...(str(args[2]) !== undefined ? { routingKey: str(args[2])! } : {}),
        };
      src.read('recoverer', `RepublishMessageRecoverer(${args.slice(1).join(', ')})`, at('recoverer'));
    } else if (/ImmediateRequeueMessageRecoverer/.test(recText)) {
      recoverer = { kind: 'requeue' };
      src.read('recoverer', 'ImmediateRequeueMessageRecoverer', at('recoverer'));
    } else if (/RejectAndDontRequeueRecoverer/.test(recText))
      src.read('recoverer', 'RejectAndDontRequeueRecoverer', at('recoverer'));
    else if (rec)
      src.note(
        'not-understood',
        at('recoverer'),
        `recoverer(${recText.trim().slice(0, 60)}): not a recoverer read here; RejectAndDontRequeueRecoverer is assumed`,
      );
    else if (builder[1] === 'stateless') {
      recoverer = { kind: 'discard' };
      src.defaulted('recoverer', DEFAULTS.springAmqp.statelessRecoverer);
    } else src.defaulted('recoverer', D.recoverer);
  }
  const requeueCall = findMethodCalls(text, 'setDefaultRequeueRejected')[0];
  const requeueRejected = requeueCall
    ? src.read('setDefaultRequeueRejected', requeueCall.args.trim(), lineAt(text, requeueCall.at)) !== 'false'
    : src.defaulted('defaultRequeueRejected', D.defaultRequeueRejected) === 'true';
  const prefetchCall = findMethodCalls(text, 'setPrefetchCount')[0];
  const prefetch = intLiteral(prefetchCall?.args) ?? Number(D.prefetch.value);
  if (prefetchCall) src.read('setPrefetchCount', String(prefetch), lineAt(text, prefetchCall.at));
  for (const c of findMethodCalls(text, 'setErrorHandler'))
    src.note(
      'not-understood',
      lineAt(text, c.at),
      'setErrorHandler(...): an error handler (ConditionalRejectingErrorHandler) rejects fatal errors, such as conversion failures, without requeue; other failures follow the container default read here',
    );
  const ackCall = findMethodCalls(text, 'setAcknowledgeMode')[0];
  const ack = /NONE/.test(ackCall?.args ?? '') ? 'none' : /MANUAL/.test(ackCall?.args ?? '') ? 'manual' : 'auto';
  if (ackCall) src.read('setAcknowledgeMode', ack, lineAt(text, ackCall.at));
  if (ack === 'manual')
    src.note(
      'not-understood',
      lineAt(text, ackCall!.at),
      'AcknowledgeMode.MANUAL: the listener settles each message; read as the container does for a thrown exception',
    );

  // the listeners
  const listened: { queue: string; line: number }[] = [];
  for (const m of text.matchAll(/@RabbitListener\s*\(([^)]*)\)/g)) {
    const qs = /queues\s*=\s*(\{[^}]*\}|[^,)]+)/.exec(m[1]!)?.[1] ?? (/^\s*"/.test(m[1]!) ? m[1]! : undefined);
    const names = qs === undefined ? [] : splitArgs(qs.replace(/^\{|\}$/g, '')).map(str);
    if (qs === undefined || names.some((n) => n === undefined))
      src.note(
        'not-understood',
        lineAt(text, m.index!),
        `@RabbitListener(${m[1]!.trim().slice(0, 80)}): queue names not read (placeholders and bindings are not resolved)`,
      );
    for (const n of names) if (n !== undefined) listened.push({ queue: n, line: lineAt(text, m.index!) });
  }
  if (!builder && listened.length === 0 && !requeueCall)
    throw new AppConfigFailure({
      file: file.name,
      message: 'no Spring AMQP listener (@RabbitListener) or retry advice (RetryInterceptorBuilder) found',
    });
  const topo: Topology = { exchanges, queues, bindings, policies: [] } as unknown as Topology;
  const standIn = listened.length === 0 && queues.length === 0;
  const listenQueues =
    listened.length > 0
      ? [...new Set(listened.map((l) => l.queue))]
      : queues.length > 0
        ? queues
            .filter((q) => {
              const r = assumedConsumers(topo).roles[q.name];
              return r === 'work' || r === 'idle';
            })
            .map((q) => q.name)
        : ['listener.queue'];
  for (const qn of listenQueues)
    if (!queues.some((q) => q.name === qn)) queues.push({ name: qn, durable: true, auto_delete: false, arguments: {} });
  const behaviour = springListenerBehaviour({
    retryEnabled: builder !== null,
    stateless: builder?.[1] !== 'stateful',
    maxAttempts,
    backoff,
    requeueRejected,
    recoverer,
    ackMode: ack,
  });
  const consumers: ConsumerSpec[] = [];
  const sources: Record<string, NodeSource> = {};
  const anchor = builder
    ? lineAt(text, builder.index)
    : requeueCall
      ? lineAt(text, requeueCall.at)
      : (listened[0]?.line ?? 1);
  if (standIn)
    src.note(
      'not-understood',
      anchor,
      'no @RabbitListener and no Queue bean here: the container factory is read onto a stand-in queue "listener.queue" (give --definitions for the real topology)',
    );
  for (const qn of listenQueues) {
    const id = `listener-${qn}`;
    consumers.push({ id, queue: qn, label: `@RabbitListener ${qn}`, prefetch: Math.min(65535, prefetch), behaviour });
    sources[consumerNodeId(id)] = src.build(listened.find((l) => l.queue === qn)?.line ?? anchor);
    sources[queueNodeId(qn)] = {
      framework: 'spring-amqp',
      file: file.name,
      line: listened.find((l) => l.queue === qn)?.line ?? anchor,
    };
  }
  for (const x of exchanges)
    sources[exchangeNodeId(x.name)] ??= { framework: 'spring-amqp', file: file.name, line: anchor };
  if (
    recoverer.kind === 'republish' &&
    !exchanges.some((x) => x.name === recoverer.exchange) &&
    recoverer.exchange !== ''
  )
    exchanges.push({
      name: recoverer.exchange,
      type: 'topic',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
  const entry = bindings.find((b) => listenQueues.includes(b.destination));
  return {
    framework: 'spring-amqp',
    exchanges,
    queues,
    bindings,
    consumers,
    publishers: listenQueues.map((qn) =>
      entry && entry.destination === qn
        ? { id: `publish-${qn}`, exchange: entry.source, routingKey: entry.routing_key, bodyPrefix: qn }
        : { id: `publish-${qn}`, exchange: '', routingKey: qn, bodyPrefix: qn },
    ),
    sources,
    notes:
      listened.length === 0 && queues.length === 0
        ? [
            {
              line: anchor,
              text: 'no queue is declared or listened to here: the listener reads a stand-in queue "listener.queue" (give --definitions)',
            },
          ]
        : [],
  };
}
