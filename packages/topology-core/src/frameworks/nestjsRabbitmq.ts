/**
 * NestJS with @golevelup/nestjs-rabbitmq (TypeScript read as text): each `@RabbitSubscribe({...})`
 * and `@RabbitRPC({...})` handler (exchange, routingKey, queue, queueOptions as amqplib options,
 * errorBehavior, errorHandler) and the module's `RabbitMQModule.forRoot(...)` configuration
 * (exchanges, queues, prefetchCount, defaultSubscribeErrorBehavior), from this file or another
 * given with it. A handler that throws gets its errorHandler, else its errorBehavior, else the
 * module's default: REQUEUE (packages/rabbitmq/src/amqp/connection.ts defaultConfig, 2.0 to 9.0),
 * a nack with requeue: a message that always fails is redelivered at once, for ever (golevelup #138).
 * A handler that returns `new Nack(requeue)` from its catch decides itself; one that catches and
 * returns nothing acks: the message is discarded.
 */
import type { ExchangeDef } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec } from '../model/consumer.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { queueShape } from './read/amqplibOptions.js';
import type { CodeText } from './read/codeText.js';
import { entry, jsValueAt, JsValues, type JsNode } from './read/jsLiteral.js';
import { NEST_HANDLER_KEYS, nestKeyNotes } from './read/nestjsKeys.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import type { AppFrameworkDef, AppInput, AppReading, JsReadingContext, RunnableConsumer } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

const CONNECTION = 'https://github.com/golevelup/nestjs/blob/master/packages/rabbitmq/src/amqp/connection.ts';
const BEHAVIORS = 'https://github.com/golevelup/nestjs/blob/master/packages/rabbitmq/src/amqp/errorBehaviors.ts';
const D = {
  errorBehavior: {
    value: 'REQUEUE (defaultSubscribeErrorBehavior): basic.nack requeue=true',
    cite: `${CONNECTION} and ${BEHAVIORS}`,
  },
  /** defaultConfig.defaultRpcErrorHandler: getHandlerForLegacyBehavior(REQUEUE), from 4.1.0 */
  rpcErrorHandler: { value: 'REQUEUE: basic.nack requeue=true (errorBehavior is not used)', cite: CONNECTION },
  prefetchCount: { value: '10', cite: CONNECTION },
  exchangeType: { value: 'topic', cite: CONNECTION },
} as const;

export const looksLikeNestRabbit = (text: string): boolean =>
  /@golevelup\/nestjs-rabbitmq|@RabbitSubscribe\s*\(|@RabbitRPC\s*\(|RabbitMQModule\s*\.\s*forRoot/.test(text);

/** errorBehavior -> what the handler does with the delivery (errorBehaviors.ts getHandlerForLegacyBehavior) */
const BEHAVIOR: Readonly<Record<string, ConsumerAction>> = {
  ACK: { kind: 'discard' },
  NACK: { kind: 'reject' },
  REQUEUE: { kind: 'requeue' },
};
/** the library's own error handlers */
const HANDLERS: Readonly<Record<string, ConsumerAction>> = {
  ackErrorHandler: { kind: 'discard' },
  defaultNackErrorHandler: { kind: 'reject' },
  requeueErrorHandler: { kind: 'requeue' },
};

interface ModuleConfig {
  readonly node: JsNode;
  readonly values: JsValues;
  readonly code: CodeText;
  readonly file: string;
}

/** `RabbitMQModule.forRoot(RabbitMQModule, {...})`, `forRoot({...})`, or forRootAsync's useFactory result. */
function moduleConfig(input: AppInput): ModuleConfig | undefined {
  for (const i of [input, ...(input.companions ?? [])]) {
    const code = i.code();
    const call = [...code.calls('RabbitMQModule.forRoot'), ...code.calls('RabbitMQModule.forRootAsync')][0];
    if (!call) continue;
    const values = new JsValues(code, input.env);
    const obj = /\bexchanges\s*:|\bprefetchCount\s*:|\bdefaultSubscribeErrorBehavior\s*:|\buri\s*:/.exec(call.args);
    const open = obj ? code.enclosing(call.argsAt + obj.index, '{') : undefined;
    if (open !== undefined) return { node: jsValueAt(code, open), values, code, file: i.file.name };
  }
  return undefined;
}

const behaviorName = (n: JsNode | undefined, values: JsValues): string | undefined => {
  const v = values.node(n);
  if (v?.kind === 'string') return v.value.toUpperCase();
  return v?.kind === 'expr' ? /(?:^|\.)(ACK|NACK|REQUEUE)$/.exec(v.text)?.[1] : undefined;
};

interface BodyDecision {
  readonly action: ConsumerAction;
  readonly at: number;
  readonly why: string;
}

/** What the handler's own body does on failure: a `return new Nack(x)` in a catch, or a catch that swallows the error. */
function bodyDecides(code: CodeText, decoratorEnd: number): BodyDecision | undefined {
  const sig = /\s*(?:public|private|protected|async|\s)*\w+\s*\(/y;
  sig.lastIndex = decoratorEnd;
  if (!sig.exec(code.text)) return undefined;
  const args = code.balanced(sig.lastIndex - 1);
  const open = args ? code.text.indexOf('{', args.end) : -1;
  const body = open >= 0 ? code.balanced(open) : undefined;
  if (!body) return undefined;
  const nack = /return\s+new\s+Nack\s*\(\s*(true|false)?\s*\)/.exec(body.inner);
  const catchAt = body.inner.search(/\bcatch\s*(\([^)]*\))?\s*\{/);
  if (catchAt < 0) return undefined;
  const catchOpen = open + 1 + body.inner.indexOf('{', catchAt);
  const catchBody = code.balanced(catchOpen)?.inner ?? '';
  if (nack && body.inner.indexOf(nack[0]) > catchAt)
    return {
      action: nack[1] === 'true' ? { kind: 'requeue' } : { kind: 'reject' },
      at: open + 1 + nack.index,
      why: `returns ${nack[0].replace(/^return\s+/, '')} from its catch`,
    };
  if (!/\bthrow\b/.test(catchBody))
    return {
      action: { kind: 'discard' },
      at: catchOpen,
      why: 'catches its errors and returns: the library acks the message',
    };
  return undefined;
}

interface Ctx extends JsReadingContext {
  readonly module?: ModuleConfig;
}

function ensureExchange(ctx: Ctx, name: string, line: number): void {
  if (name === '' || ctx.exchanges.some((x) => x.name === name)) return;
  const declared = ctx.module && (ctx.module.values.node(entry(ctx.module.node, 'exchanges')) as JsNode | undefined);
  const found =
    declared?.kind === 'array'
      ? declared.items.find((x) => ctx.module!.values.scalar(entry(x, 'name')) === name)
      : undefined;
  const type = String(
    (found && ctx.module!.values.scalar(entry(found, 'type'))) ??
      ctx.module?.values.scalar(entry(ctx.module.node, 'defaultExchangeType')) ??
      D.exchangeType.value,
  ) as ExchangeDef['type'];
  if (!found)
    ctx.notes.push({
      line,
      text: `exchange ${name} is not in the module configuration given: read as a ${type} exchange`,
    });
  const args = found
    ? queueShape(entry(entry(found, 'options'), 'arguments') ? entry(found, 'options') : undefined, ctx.module!.values)
        .arguments
    : {};
  ctx.exchanges.push({ name, type, durable: true, auto_delete: false, internal: false, arguments: args });
  ctx.sources[exchangeNodeId(name)] = { framework: 'nestjs-rabbitmq', file: ctx.file, line };
}

function readHandler(
  ctx: Ctx,
  kind: string,
  at: number,
  optionsAt: number,
  decoratorEnd: number,
  method: string,
): ConsumerSpec {
  const { code, values } = ctx;
  const opts = jsValueAt(code, optionsAt);
  const line = code.line(at);
  const src = new SourceBuilder('nestjs-rabbitmq', ctx.file);
  for (const n of nestKeyNotes(opts, code)) src.addNote(n);
  const exchange = String(values.scalar(entry(opts, 'exchange')) ?? '');
  if (exchange === '' && entry(opts, 'exchange') !== undefined)
    src.note(
      'not-understood',
      line,
      `${kind}: the exchange is an expression not read here (a constant of another file?): no binding is read`,
    );
  const queueV = values.scalar(entry(opts, 'queue'));
  // the broker names it (amq.gen-...); the design needs a name of its own
  const queue = queueV !== undefined ? String(queueV) : `server-named.${method}`;
  if (queueV === undefined && entry(opts, 'queue') !== undefined)
    src.note(
      'not-understood',
      line,
      `${kind}: the queue name is an expression not read here; a stand-in "${queue}" is used`,
    );
  else if (queueV === undefined)
    src.note('not-understood', line, `${kind} without a queue: the broker names one (amq.gen-...); read as "${queue}"`);
  const shape = queueShape(entry(opts, 'queueOptions'), values);
  if (!ctx.queues.some((q) => q.name === queue))
    ctx.queues.push({ name: queue, durable: shape.durable, auto_delete: shape.autoDelete, arguments: shape.arguments });
  const rk = values.node(entry(opts, 'routingKey'));
  const keys = rk?.kind === 'array' ? rk.items.map((k) => values.scalar(k)) : [values.scalar(rk)];
  if (exchange !== '') {
    ensureExchange(ctx, exchange, line);
    for (const k of keys)
      if (k !== undefined)
        ctx.bindings.push({
          source: exchange,
          destination: queue,
          destination_type: 'queue',
          routing_key: String(k),
          arguments: {},
        });
      else src.note('not-understood', line, `${kind}: a routing key is an expression not read here`);
  }
  const filters = /@UseFilters\s*\(([^)]*)\)/.exec(code.text);
  if (filters)
    src.note(
      'not-understood',
      code.line(filters.index),
      `@UseFilters(${filters[1]!.trim()}): an exception filter decides what a failure does (it may return new Nack or republish); not read: the handler's errorBehavior is`,
      undefined,
      { failurePathUnread: true },
    );
  const own = bodyDecides(code, decoratorEnd);
  const action = failureAction(ctx, kind, opts, src, own);
  ctx.runnable[method] = runnableHandler(ctx, kind, opts, own);
  const prefetch = Number(ctx.module?.values.scalar(entry(ctx.module.node, 'prefetchCount')) ?? D.prefetchCount.value);
  ctx.sources[consumerNodeId(method)] = src.build(line);
  ctx.sources[queueNodeId(queue)] ??= { framework: 'nestjs-rabbitmq', file: ctx.file, line };
  return {
    id: method,
    queue,
    label: `${kind} ${method}`,
    prefetch,
    behaviour: { kind: 'worker', onFailure: [{ then: action }] },
  };
}

/** the library handler an expression names (`ackErrorHandler`, `RabbitMQ.ackErrorHandler`), if it is one */
const handlerNamed = (n: JsNode | undefined): string | undefined => {
  const name = n?.kind === 'expr' ? /(\w+)$/.exec(n.text)?.[1] : undefined;
  return name && HANDLERS[name] ? name : undefined;
};

/** errorHandler, else errorBehavior, else the module's defaultSubscribeErrorBehavior, else REQUEUE; the body's own catch over them all. */
function failureAction(
  ctx: Ctx,
  kind: string,
  opts: JsNode,
  src: SourceBuilder,
  own: BodyDecision | undefined,
): ConsumerAction {
  const { code, values } = ctx;
  if (own) {
    src.read('handler', own.why, code.line(own.at));
    return own.action;
  }
  const handler = values.node(entry(opts, 'errorHandler'));
  if (handler) {
    const name = handlerNamed(handler);
    if (name) {
      src.read('errorHandler', name, code.line(handler.at));
      return HANDLERS[name]!;
    }
    src.note(
      'not-understood',
      code.line(handler.at),
      `errorHandler: a handler of the application's own decides each failure; not read (read as ${kind === '@RabbitRPC' ? 'the RPC default' : 'its errorBehavior, or the default'})`,
      undefined,
      { failurePathUnread: true },
    );
  }
  if (kind === '@RabbitRPC') return rpcFailureAction(ctx, opts, src);
  const own2 = behaviorName(entry(opts, 'errorBehavior'), values);
  if (own2 && BEHAVIOR[own2]) {
    src.read('errorBehavior', own2, code.line(entry(opts, 'errorBehavior')!.at));
    return BEHAVIOR[own2]!;
  }
  const mod = ctx.module && behaviorName(entry(ctx.module.node, 'defaultSubscribeErrorBehavior'), ctx.module.values);
  if (mod && BEHAVIOR[mod]) {
    src.read(
      'defaultSubscribeErrorBehavior',
      mod,
      ctx.module!.code.line(entry(ctx.module!.node, 'defaultSubscribeErrorBehavior')!.at),
      { file: ctx.module!.file },
    );
    return BEHAVIOR[mod]!;
  }
  src.defaulted('errorBehavior', D.errorBehavior);
  return BEHAVIOR.REQUEUE!;
}

/**
 * An @RabbitRPC handler with no errorHandler of its own: from 4.1.0 (#644) the library takes the
 * module's defaultRpcErrorHandler, which defaults to REQUEUE, before errorBehavior is looked at: a
 * handler's errorBehavior never applies (connection.ts, the RPC consumer's catch).
 */
function rpcFailureAction(ctx: Ctx, opts: JsNode, src: SourceBuilder): ConsumerAction {
  const { code } = ctx;
  const behavior = entry(opts, 'errorBehavior');
  if (behavior)
    src.note(
      'ignored-key',
      code.line(behavior.at),
      `errorBehavior on an @RabbitRPC handler is not used (@golevelup/nestjs-rabbitmq 4.1.0 and later): the module's defaultRpcErrorHandler, REQUEUE unless set, handles every RPC failure`,
      'errorBehavior',
      {
        fix: 'Give the @RabbitRPC handler errorHandler: ackErrorHandler (or defaultNackErrorHandler), or set defaultRpcErrorHandler in RabbitMQModule.forRoot.',
      },
    );
  const m = ctx.module;
  const mod = m ? entry(m.node, 'defaultRpcErrorHandler') : undefined;
  const name = handlerNamed(m?.values.node(mod));
  if (name) {
    src.read('defaultRpcErrorHandler', name, m!.code.line(mod!.at), { file: m!.file });
    return HANDLERS[name]!;
  }
  if (mod)
    src.note(
      'not-understood',
      m!.code.line(mod.at),
      "defaultRpcErrorHandler: a handler of the application's own decides each RPC failure; not read (read as the library's REQUEUE)",
      undefined,
      { failurePathUnread: true },
    );
  src.defaulted('defaultRpcErrorHandler', D.rpcErrorHandler);
  return BEHAVIOR.REQUEUE!;
}

/**
 * What @golevelup/nestjs-rabbitmq is handed to run one handler, as this file evaluates: the
 * decorator's options (errorBehavior by its enum name, errorHandler by the library handler it
 * names), the module's forRoot options, and what the body does with a failure (it throws; it
 * returns new Nack(requeue); it catches and returns).
 */
function runnableHandler(ctx: Ctx, kind: string, opts: JsNode, own: BodyDecision | undefined): RunnableConsumer {
  const { values } = ctx;
  const found: string[] = [];
  const subscribe = { ...(values.plain(opts, found) as Record<string, unknown>) };
  delete subscribe.errorHandler;
  delete subscribe.errorBehavior;
  const behavior = behaviorName(entry(opts, 'errorBehavior'), values);
  if (behavior && BEHAVIOR[behavior]) subscribe.errorBehavior = behavior;
  const handlerName = handlerNamed(values.node(entry(opts, 'errorHandler')));
  const m = ctx.module;
  const rpcHandler = m ? handlerNamed(m.values.node(entry(m.node, 'defaultRpcErrorHandler'))) : undefined;
  const module = m ? { ...(m.values.plain(m.node, found) as Record<string, unknown>) } : {};
  // the handler's exchange, when the module given does not declare it: as read (another file's module declares it)
  const exchanges = Array.isArray(module.exchanges)
    ? [...(module.exchanges as { name?: unknown; type?: unknown }[])]
    : [];
  const x = ctx.exchanges.find((e) => e.name === subscribe.exchange);
  if (x && !exchanges.some((e) => e.name === x.name)) exchanges.push({ name: x.name, type: x.type });
  if (exchanges.length) module.exchanges = exchanges;
  const modBehavior = m && behaviorName(entry(m.node, 'defaultSubscribeErrorBehavior'), m.values);
  if (modBehavior && BEHAVIOR[modBehavior]) module.defaultSubscribeErrorBehavior = modBehavior;
  else delete module.defaultSubscribeErrorBehavior;
  // the error behaviours and handlers are carried by name above: not unread
  const named = [entry(opts, 'errorBehavior'), entry(opts, 'errorHandler')]
    .concat(m ? [entry(m.node, 'defaultSubscribeErrorBehavior'), entry(m.node, 'defaultRpcErrorHandler')] : [])
    .flatMap((n) => (n?.kind === 'expr' ? [n.text] : []));
  const unread = found.filter((t) => !named.includes(t));
  return {
    decorator: kind.replace(/^@/, ''),
    subscribe,
    ...(handlerName ? { errorHandler: handlerName } : {}),
    ...(rpcHandler ? { rpcErrorHandler: rpcHandler } : {}),
    module,
    onFailure: !own
      ? 'throws'
      : own.action.kind === 'discard'
        ? 'returns'
        : own.action.kind === 'requeue'
          ? 'nack-requeue'
          : 'nack',
    ...(unread.length ? { unread } : {}),
  };
}

/** The module's own exchanges and queues (declared with their bindings), when this file configures the module. */
function moduleTopology(ctx: Ctx): void {
  const m = ctx.module;
  if (!m || m.file !== ctx.file) return;
  const ex = m.values.node(entry(m.node, 'exchanges'));
  for (const x of ex?.kind === 'array' ? ex.items : []) {
    const name = m.values.scalar(entry(x, 'name'));
    if (name !== undefined) ensureExchange(ctx, String(name), m.code.line(x.at));
  }
  const qs = m.values.node(entry(m.node, 'queues'));
  for (const q of qs?.kind === 'array' ? qs.items : []) {
    const name = m.values.scalar(entry(q, 'name'));
    if (name === undefined) continue;
    const shape = queueShape(entry(q, 'options') ?? entry(q, 'queueOptions'), m.values);
    ctx.queues.push({
      name: String(name),
      durable: shape.durable,
      auto_delete: shape.autoDelete,
      arguments: shape.arguments,
    });
    ctx.sources[queueNodeId(String(name))] = { framework: 'nestjs-rabbitmq', file: ctx.file, line: m.code.line(q.at) };
    const x = m.values.scalar(entry(q, 'exchange'));
    const rk = m.values.scalar(entry(q, 'routingKey'));
    if (x !== undefined) {
      ensureExchange(ctx, String(x), m.code.line(q.at));
      ctx.bindings.push({
        source: String(x),
        destination: String(name),
        destination_type: 'queue',
        routing_key: String(rk ?? ''),
        arguments: {},
      });
    }
  }
}

function readNest(input: AppInput): AppReading {
  const code = input.code();
  const file = input.file.name;
  const values = new JsValues(code, input.env);
  const module = moduleConfig(input);
  const ctx: Ctx = {
    code,
    values,
    file,
    exchanges: [],
    queues: [],
    bindings: [],
    sources: {},
    notes: [],
    ...(module ? { module } : {}),
    runnable: {},
  };
  moduleTopology(ctx);
  const consumers: ConsumerSpec[] = [];
  for (const kind of ['RabbitSubscribe', 'RabbitRPC'])
    for (const m of code.text.matchAll(new RegExp(`@${kind}\\s*\\(`, 'g'))) {
      const b = code.balanced(m.index + m[0].length - 1);
      if (!b) continue;
      const optionsAt = code.text.indexOf('{', m.index + m[0].length - 1);
      if (optionsAt < 0 || optionsAt > b.end) {
        ctx.notes.push({
          line: code.line(m.index),
          text: `@${kind}(...): its options are not an object literal; not read`,
        });
        continue;
      }
      const method =
        /^\s*(?:@\w+(?:\([^)]*\))?\s*)*(?:public|private|protected|async|static|\s)*([A-Za-z_$][\w$]*)\s*\(/.exec(
          code.text.slice(b.end, b.end + 400),
        )?.[1] ?? `handler${consumers.length + 1}`;
      consumers.push(readHandler(ctx, `@${kind}`, m.index, optionsAt, b.end, method));
    }
  if (consumers.length === 0 && !module)
    throw new AppConfigFailure({
      file,
      message: 'no @RabbitSubscribe / @RabbitRPC handler or RabbitMQModule.forRoot configuration found',
    });
  return {
    framework: 'nestjs-rabbitmq',
    exchanges: ctx.exchanges,
    queues: ctx.queues,
    bindings: ctx.bindings,
    consumers,
    publishers: [],
    sources: ctx.sources,
    notes: ctx.notes,
    runnable: ctx.runnable,
  };
}

export const nestjsRabbitmq: AppFrameworkDef = {
  id: 'nestjs-rabbitmq',
  ...FRAMEWORK_TRAITS['nestjs-rabbitmq'],
  fileKinds: ['javascript'],
  looksFor: '@RabbitSubscribe / RabbitMQModule.forRoot',
  detect: (input) => looksLikeNestRabbit(input.file.text),
  read: readNest,
  defaults: D,
  keys: NEST_HANDLER_KEYS,
};
