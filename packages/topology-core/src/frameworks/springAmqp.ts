/**
 * Spring AMQP Java (or Kotlin) configuration read as text: the retry advice
 * (`RetryInterceptorBuilder.stateless()|stateful()`, each chained method a row of ADVICE), the
 * container factory (each setter a row of FACTORY), the declared objects (javaBeans.ts) and the
 * listeners (`@RabbitListener(queues = ..., bindings = @QueueBinding(...))`). Values go through
 * constants, simple expressions and `${...}` placeholders (javaValues.ts); anything else is named
 * as not understood, with its line. Spring AMQP up to 3.x retries with Spring Retry
 * (`maxAttempts(n)`: n attempts in all; no back-off unless `backOffOptions`); 4.0 with Spring
 * Framework's RetryPolicy (`maxRetries(n)`: n retries after the first attempt, 1 s apart unless said).
 */
import type { ConsumerSpec } from '../model/consumer.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { CodeText, splitArgs, stringLiteral, type Call } from './read/codeText.js';
import { JavaValues } from './read/javaValues.js';
import { readJavaBeans, type JavaBeans } from './read/javaBeans.js';
import { readRabbitListeners } from './read/rabbitListeners.js';
import { buildListenerTemplate } from './read/listenerTemplate.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import { springListenerBehaviour, type SpringRecoverer } from './read/springListener.js';
import type { AppFrameworkDef, AppInput, AppReading } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

const SPRING_RETRY =
  'https://github.com/spring-projects/spring-retry/blob/main/src/main/java/org/springframework/retry/support/RetryTemplate.java';
const SPRING_CORE_RETRY =
  'https://github.com/spring-projects/spring-framework/blob/main/spring-core/src/main/java/org/springframework/core/retry/RetryPolicy.java';
const AMQP_CONTAINER = 'https://docs.spring.io/spring-amqp/reference/amqp/containerAttributes.html';

const D = {
  /** Spring Retry's SimpleRetryPolicy (Spring AMQP up to 3.x) */
  maxAttempts: { value: '3', cite: SPRING_RETRY },
  /** `new RetryTemplate()` keeps Spring Retry's NoBackOffPolicy until backOffOptions(...) is called */
  builderBackOff: { value: 'NoBackOffPolicy (no wait)', cite: SPRING_RETRY },
  /** Spring AMQP 4.0: Spring Framework's RetryPolicy.Builder: 3 retries, 1 s apart (DEFAULT_DELAY, multiplier 1) */
  maxRetries: { value: '3', cite: SPRING_CORE_RETRY },
  retryPolicyBackOff: { value: '1000 ms, multiplier 1', cite: SPRING_CORE_RETRY },
  /** stateless, no recoverer: "Message(s) dropped on recovery" is logged and the listener returns: the delivery is acked, the message gone */
  statelessRecoverer: {
    value: 'none: logged as dropped and acked (discarded)',
    cite: 'https://github.com/spring-projects/spring-amqp/blob/main/spring-rabbit/src/main/java/org/springframework/amqp/rabbit/config/StatelessRetryOperationsInterceptorFactoryBean.java',
  },
  statefulRecoverer: { value: 'RejectAndDontRequeueRecoverer', cite: AMQP_CONTAINER },
  defaultRequeueRejected: { value: 'true', cite: AMQP_CONTAINER },
  prefetch: { value: '250', cite: AMQP_CONTAINER },
} as const;

export const looksLikeSpringAmqpJava = (text: string): boolean =>
  /RetryInterceptorBuilder|@RabbitListener|RabbitListenerContainerFactory|org\.springframework\.amqp/.test(text);

interface ReadCtx {
  readonly code: CodeText;
  readonly values: JavaValues;
  readonly src: SourceBuilder;
  readonly str: (expr: string | undefined) => string | undefined;
}

interface Advice {
  mode: 'stateless' | 'stateful';
  attempts?: number;
  /** read as Spring AMQP 4 (maxRetries, configureRetryPolicy) */
  v4: boolean;
  backoff?: { initialMs: number; multiplier: number; maxMs: number };
  jitter: boolean;
  recoverer?: SpringRecoverer;
  at: number;
}

/** A number argument through constants and expressions, recorded with what it went through; undefined (noted) when not one. */
function num(ctx: ReadCtx, c: Call, key: string, expr = c.args): number | undefined {
  const r = ctx.values.number(expr);
  if (r.n === undefined) {
    ctx.src.note(
      'not-understood',
      ctx.code.line(c.at),
      `${c.name}(${c.args.trim().slice(0, 60)}): not a value read here; the default is used`,
    );
    return undefined;
  }
  ctx.src.read(key, String(r.n), ctx.code.line(c.at), r.via.length ? { via: r.via.join('; ') } : {});
  return r.n;
}

/** Spring Framework 7's RetryPolicy.Builder inside configureRetryPolicy(b -> b.maxRetries(..).delay(..)...) */
function retryPolicyBuilder(ctx: ReadCtx, a: Advice, c: Call): void {
  a.v4 = true;
  const backoff = { ...(a.backoff ?? { initialMs: 1000, multiplier: 1, maxMs: Number.MAX_SAFE_INTEGER }) };
  const inner = new CodeText(ctx.code.file, c.args, 'c');
  const at = (x: Call): Call => ({ ...x, at: c.argsAt + x.at });
  for (const m of ['maxRetries', 'delay', 'multiplier', 'maxDelay', 'jitter'])
    for (const x of inner.methodCalls(m).map(at)) {
      const n = num(ctx, x, m);
      if (n === undefined) continue;
      if (m === 'maxRetries') a.attempts = n + 1;
      else if (m === 'delay') backoff.initialMs = n;
      else if (m === 'multiplier') backoff.multiplier = n;
      else if (m === 'maxDelay') backoff.maxMs = n;
      else a.jitter = n > 0;
    }
  a.backoff = backoff;
}

/** RetryInterceptorBuilder's methods: how each shapes the retry. */
const ADVICE: Readonly<Record<string, (ctx: ReadCtx, a: Advice, c: Call) => void>> = {
  maxAttempts: (ctx, a, c) => {
    const n = num(ctx, c, 'maxAttempts');
    if (n !== undefined) a.attempts = n;
  },
  maxRetries: (ctx, a, c) => {
    a.v4 = true;
    const n = num(ctx, c, 'maxRetries');
    if (n !== undefined) a.attempts = n + 1;
  },
  backOffOptions: (ctx, a, c) => {
    const [i, mul, mx] = splitArgs(c.args).map((x) => ctx.values.number(x));
    if (i?.n === undefined || mul?.n === undefined || mx?.n === undefined) {
      ctx.src.note(
        'not-understood',
        ctx.code.line(c.at),
        `backOffOptions(${c.args.trim()}): not values read here; the defaults are used`,
      );
      return;
    }
    a.backoff = { initialMs: i.n, multiplier: Math.max(1, mul.n), maxMs: Math.max(i.n, mx.n) };
    const via = [...i.via, ...mul.via, ...mx.via];
    ctx.src.read(
      'backOffOptions',
      `${i.n}, ${mul.n}, ${mx.n}`,
      ctx.code.line(c.at),
      via.length ? { via: via.join('; ') } : {},
    );
  },
  configureRetryPolicy: (ctx, a, c) => retryPolicyBuilder(ctx, a, c),
  recoverer: (ctx, a, c) => (a.recoverer = readRecoverer(ctx, c)),
  retryPolicy: (ctx, _a, c) =>
    ctx.src.note('not-understood', ctx.code.line(c.at), '.retryPolicy(...): a custom policy is not read'),
  backOffPolicy: (ctx, _a, c) =>
    ctx.src.note('not-understood', ctx.code.line(c.at), '.backOffPolicy(...): a custom back-off is not read'),
  retryOperations: (ctx, _a, c) =>
    ctx.src.note('not-understood', ctx.code.line(c.at), '.retryOperations(...): a custom retry template is not read'),
};

/** The recoverer: a known class, a bean or variable that returns one, or a lambda (which returns: the message is discarded). */
function readRecoverer(ctx: ReadCtx, c: Call): SpringRecoverer {
  const line = ctx.code.line(c.at);
  const text = definitionOf(ctx.code, c.args.trim()) ?? c.args;
  const rep = /new\s+RepublishMessageRecoverer\s*\(([\s\S]*)\)/.exec(text);
  if (rep) {
    const args = splitArgs(rep[1]!);
    const x = ctx.str(args[1]);
    ctx.src.read('recoverer', `RepublishMessageRecoverer(${args.slice(1).join(', ')})`, line);
    if (x !== undefined)
      return {
        kind: 'republish',
        exchange: x,
        ...(ctx.str(args[2]) !== undefined ? { routingKey: ctx.str(args[2])! } : {}),
      };
    ctx.src.note(
      'not-understood',
      line,
      'RepublishMessageRecoverer: the exchange is not a string, a constant or a property',
    );
    return { kind: 'reject' };
  }
  if (/ImmediateRequeueMessageRecoverer/.test(text)) {
    ctx.src.read('recoverer', 'ImmediateRequeueMessageRecoverer', line);
    return { kind: 'requeue' };
  }
  if (/RejectAndDontRequeueRecoverer|AmqpRejectAndDontRequeueException/.test(text)) {
    ctx.src.read('recoverer', 'RejectAndDontRequeueRecoverer', line);
    return { kind: 'reject' };
  }
  ctx.src.note(
    'not-understood',
    line,
    `recoverer(${c.args.trim().slice(0, 60)}): a recoverer not read here; read as one that returns (the message is acked and gone); one that throws AmqpRejectAndDontRequeueException rejects instead`,
    undefined,
    { failurePathUnread: true },
  );
  return { kind: 'discard' };
}

/** The text that defines a bean method or variable named by `expr` (`recoverer()`, `myRecoverer`), when the file has it. */
function definitionOf(code: CodeText, expr: string): string | undefined {
  const id = /^([A-Za-z_]\w*)\s*(?:\(\s*\))?$/.exec(expr)?.[1];
  if (!id) return undefined;
  const method = new RegExp(`\\b${id}\\s*\\([^(){};]{0,200}\\)\\s*(?:throws\\s+[\\w.,\\s]{1,100})?\\{`).exec(code.text);
  if (method) return code.balanced(method.index + method[0].length - 1)?.inner;
  const variable = new RegExp(`\\b${id}\\s*=\\s*([^;]{1,400});`).exec(code.text);
  return variable?.[1];
}

function readAdvice(ctx: ReadCtx): Advice | undefined {
  const found = ['stateless', 'stateful']
    .flatMap((m) => ctx.code.calls(`RetryInterceptorBuilder.${m}`))
    .sort((a, b) => a.at - b.at);
  const first = found[0];
  if (!first) return undefined;
  const a: Advice = {
    mode: first.name.endsWith('stateful') ? 'stateful' : 'stateless',
    v4: false,
    jitter: false,
    at: first.at,
  };
  ctx.src.read('RetryInterceptorBuilder', a.mode, ctx.code.line(first.at));
  for (const other of found.slice(1))
    ctx.src.note(
      'not-understood',
      ctx.code.line(other.at),
      'a second RetryInterceptorBuilder: the first one in the file is read',
    );
  for (const c of ctx.code.chain(first.end)) {
    if (c.name === 'build') break;
    ADVICE[c.name]?.(ctx, a, c);
  }
  if (a.attempts === undefined)
    a.attempts =
      Number(a.v4 ? ctx.src.defaulted('maxRetries', D.maxRetries) : ctx.src.defaulted('maxAttempts', D.maxAttempts)) +
      (a.v4 ? 1 : 0);
  if (a.backoff === undefined) {
    a.backoff = a.v4 ? { initialMs: 1000, multiplier: 1, maxMs: 1000 } : { initialMs: 0, multiplier: 1, maxMs: 0 };
    ctx.src.defaulted('backOffOptions', a.v4 ? D.retryPolicyBackOff : D.builderBackOff);
  }
  if (a.recoverer === undefined) {
    a.recoverer = a.mode === 'stateless' ? { kind: 'discard' } : { kind: 'reject' };
    ctx.src.defaulted('recoverer', a.mode === 'stateless' ? D.statelessRecoverer : D.statefulRecoverer);
  }
  return a;
}

interface Factory {
  requeueRejected: boolean;
  prefetch: number;
  ack: 'auto' | 'manual' | 'none';
  concurrency: number;
  /** where the factory is configured (the anchor when there is no advice) */
  at?: number;
}

/** The container factory's setters (SimpleRabbitListenerContainerFactory): how each shapes the listener. */
const FACTORY: Readonly<Record<string, (ctx: ReadCtx, f: Factory, c: Call) => void>> = {
  setDefaultRequeueRejected: (ctx, f, c) => {
    f.requeueRejected = ctx.src.read('setDefaultRequeueRejected', c.args.trim(), ctx.code.line(c.at)) !== 'false';
  },
  setPrefetchCount: (ctx, f, c) => void (f.prefetch = num(ctx, c, 'setPrefetchCount') ?? f.prefetch),
  setConcurrentConsumers: (ctx, f, c) => void (f.concurrency = num(ctx, c, 'setConcurrentConsumers') ?? f.concurrency),
  setConsumersPerQueue: (ctx, f, c) => void (f.concurrency = num(ctx, c, 'setConsumersPerQueue') ?? f.concurrency),
  setAcknowledgeMode: (ctx, f, c) => {
    f.ack = /NONE/.test(c.args) ? 'none' : /MANUAL/.test(c.args) ? 'manual' : 'auto';
    ctx.src.read('setAcknowledgeMode', f.ack, ctx.code.line(c.at));
    if (f.ack === 'manual')
      ctx.src.note(
        'not-understood',
        ctx.code.line(c.at),
        'AcknowledgeMode.MANUAL: the listener settles each message; read as the container does for a thrown exception',
      );
  },
  setErrorHandler: (ctx, _f, c) =>
    ctx.src.note(
      'not-understood',
      ctx.code.line(c.at),
      'setErrorHandler(...): an error handler (ConditionalRejectingErrorHandler) rejects fatal errors, such as conversion failures, without requeue; other failures follow the container default read here',
    ),
};

function readFactory(ctx: ReadCtx): Factory {
  const f: Factory = { requeueRejected: true, prefetch: Number(D.prefetch.value), ack: 'auto', concurrency: 1 };
  const calls = Object.keys(FACTORY)
    .flatMap((m) => ctx.code.methodCalls(m))
    .sort((a, b) => a.at - b.at);
  for (const c of calls) {
    f.at ??= c.name === 'setDefaultRequeueRejected' ? c.at : undefined;
    FACTORY[c.name]!(ctx, f, c);
  }
  if (!calls.some((c) => c.name === 'setDefaultRequeueRejected'))
    ctx.src.defaulted('defaultRequeueRejected', D.defaultRequeueRejected);
  return f;
}

function readSpringAmqp(input: AppInput): AppReading {
  const code = input.code();
  const file = input.file.name;
  const src = new SourceBuilder('spring-amqp', file);
  const values = new JavaValues(
    code,
    input.springProperties?.get,
    (input.companions ?? []).map((c) => c.code()),
  );
  const str = (expr: string | undefined): string | undefined => {
    if (expr === undefined) return undefined;
    const s = stringLiteral(expr) ?? values.string(expr).s;
    return s === undefined ? undefined : placeholders(s, input);
  };
  const ctx: ReadCtx = { code, values, src, str };
  const beans: JavaBeans = readJavaBeans(code, values, src, str);
  const advice = readAdvice(ctx);
  const factory = readFactory(ctx);
  const listened = readRabbitListeners(code, src, str, beans);
  if (!advice && listened.length === 0 && factory.at === undefined)
    throw new AppConfigFailure({
      file,
      message: 'no Spring AMQP listener (@RabbitListener) or retry advice (RetryInterceptorBuilder) found',
    });
  const behaviour = springListenerBehaviour({
    retryEnabled: advice !== undefined,
    stateless: advice?.mode !== 'stateful',
    maxAttempts: Math.max(1, advice?.attempts ?? 1),
    backoff: advice?.backoff ?? { initialMs: 0, multiplier: 1, maxMs: 0 },
    requeueRejected: factory.requeueRejected,
    recoverer: advice?.recoverer ?? { kind: 'reject' },
    ackMode: factory.ack,
  });
  const anchor = code.line(advice?.at ?? factory.at ?? listened[0]?.at ?? 0);
  const consumer: Omit<ConsumerSpec, 'id' | 'queue'> = {
    label: '@RabbitListener',
    prefetch: Math.min(65535, factory.prefetch),
    behaviour,
  };
  const extra = { concurrency: Math.max(1, factory.concurrency), ...(advice?.jitter ? { jitter: true } : {}) };
  const sources: Record<string, NodeSource> = {};
  for (const x of beans.exchanges) sources[exchangeNodeId(x.name)] ??= { framework: 'spring-amqp', file, line: anchor };
  for (const r of [advice?.recoverer])
    if (r?.kind === 'republish' && r.exchange !== '' && !beans.exchanges.some((x) => x.name === r.exchange))
      beans.exchanges.push({
        name: r.exchange,
        type: 'topic',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      });
  const base = { framework: 'spring-amqp' as const, exchanges: beans.exchanges, bindings: beans.bindings, notes: [] };
  if (listened.length === 0)
    // no @RabbitListener: the factory is every listener's; import-app puts it on the work queues
    return {
      ...base,
      queues: beans.queues,
      consumers: [],
      publishers: [],
      sources,
      listener: buildListenerTemplate({
        consumer,
        source: src.build(anchor, extra),
        standIn: 'listener.queue',
        standInId: 'listener-listener.queue',
        standInNote:
          'no queue is declared or listened to here: the listener reads a stand-in queue "listener.queue" (give --definitions)',
      }),
    };
  const queues = [...beans.queues];
  const consumers: ConsumerSpec[] = [];
  for (const l of listened) {
    if (consumers.some((c) => c.queue === l.queue)) continue;
    if (!queues.some((q) => q.name === l.queue))
      queues.push({ name: l.queue, durable: true, auto_delete: false, arguments: {} });
    const id = `listener-${l.queue}`;
    consumers.push({ id, queue: l.queue, ...consumer, label: `@RabbitListener ${l.queue}` });
    sources[consumerNodeId(id)] = src.build(code.line(l.at), extra);
    sources[queueNodeId(l.queue)] = { framework: 'spring-amqp', file, line: code.line(l.at) };
  }
  // publishers: import-app gives each listened queue one (through its binding, else the default exchange)
  return { ...base, queues, consumers, publishers: [], sources };
}

/** `${key:default}` in a string: the Spring property given beside (or the environment), else the default. */
function placeholders(s: string, input: AppInput): string {
  if (!s.includes('${')) return s;
  return s.replace(/\$\{([^:}]+)(?::([^}]*))?\}/g, (whole, key: string, def: string | undefined) => {
    const e =
      input.springProperties?.get(key.trim()) ??
      (input.env.get(key.trim()) ? { value: input.env.get(key.trim())!.value } : undefined);
    return e?.value ?? def ?? whole;
  });
}

export const springAmqp: AppFrameworkDef = {
  id: 'spring-amqp',
  ...FRAMEWORK_TRAITS['spring-amqp'],
  fileKinds: ['java'],
  looksFor: '@RabbitListener/RetryInterceptorBuilder',
  detect: (input) => looksLikeSpringAmqpJava(input.file.text),
  read: readSpringAmqp,
  defaults: D,
};
