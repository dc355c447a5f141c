/**
 * The objects a Spring AMQP Java configuration declares: `new DirectExchange|TopicExchange|
 * FanoutExchange|HeadersExchange("x")`, `ExchangeBuilder.topicExchange("x")...build()`,
 * `new Queue("q", durable, exclusive, autoDelete, Map.of(...))`, `QueueBuilder.durable("q")...build()`
 * (each builder method a row: the argument it sets), `BindingBuilder.bind(q()).to(x()).with("rk")`
 * and `new Binding("q", DestinationType.QUEUE, "x", "rk", null)`. Names go through constants and
 * placeholders; a @Bean method's name stands for the object it returns.
 */
import type { AmqpTable, AmqpValue, BindingDef, ExchangeDef, QueueDef } from '../../model/definitions.js';
import { splitArgs, type Call, type CodeText } from './codeText.js';
import type { JavaValues } from './javaValues.js';
import type { SourceBuilder } from './sourceBuilder.js';

export interface JavaBeans {
  readonly exchanges: ExchangeDef[];
  readonly queues: QueueDef[];
  readonly bindings: BindingDef[];
}

type ArgKind = 'string' | 'int' | 'none' | 'overflow';

/** QueueBuilder's methods (Spring AMQP QueueBuilder): the argument each sets. */
const QUEUE_BUILDER: Readonly<Record<string, readonly [string, ArgKind, AmqpValue?]>> = {
  deadLetterExchange: ['x-dead-letter-exchange', 'string'],
  deadLetterRoutingKey: ['x-dead-letter-routing-key', 'string'],
  ttl: ['x-message-ttl', 'int'],
  expires: ['x-expires', 'int'],
  maxLength: ['x-max-length', 'int'],
  maxLengthBytes: ['x-max-length-bytes', 'int'],
  maxPriority: ['x-max-priority', 'int'],
  deliveryLimit: ['x-delivery-limit', 'int'],
  overflow: ['x-overflow', 'overflow'],
  quorum: ['x-queue-type', 'none', 'quorum'],
  stream: ['x-queue-type', 'none', 'stream'],
  singleActiveConsumer: ['x-single-active-consumer', 'none', true],
  lazy: ['x-queue-mode', 'none', 'lazy'],
};

const OVERFLOW: Readonly<Record<string, string>> = {
  rejectPublish: 'reject-publish',
  dropHead: 'drop-head',
  rejectPublishDlx: 'reject-publish-dlx',
};

const exchangeDef = (name: string, type: ExchangeDef['type']): ExchangeDef => ({
  name,
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: {},
});

/** Method declarations, in order: the @Bean method enclosing an offset is the last one before it. */
function methodStarts(code: CodeText): { at: number; name: string }[] {
  const out: { at: number; name: string }[] = [];
  const re = /\b([A-Za-z_]\w*)\s*\([^(){};]{0,300}\)\s*(?:throws\s+[\w.,\s]{1,200})?\{/g;
  for (const m of code.text.matchAll(re))
    if (!/^(if|for|while|switch|catch|synchronized|try|else|return|new)$/.test(m[1]!))
      out.push({ at: m.index, name: m[1]! });
  return out;
}

export function readJavaBeans(
  code: CodeText,
  values: JavaValues,
  src: SourceBuilder,
  str: (expr: string | undefined) => string | undefined,
): JavaBeans {
  const starts = methodStarts(code);
  const beanAt = (offset: number): string | undefined => {
    let lo = -1;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]!.at < offset) lo = mid;
      else hi = mid - 1;
    }
    return lo >= 0 ? starts[lo]!.name : undefined;
  };
  const beanName = new Map<string, string>();
  const out: JavaBeans = { exchanges: [], queues: [], bindings: [] };
  const named = (
    what: string,
    c: { at: number; args: string; name: string },
    nameExpr: string | undefined,
  ): string | undefined => {
    const n = str(nameExpr);
    if (n === undefined)
      src.note(
        'not-understood',
        code.line(c.at),
        `${c.name}(${c.args.trim().slice(0, 60)}): the ${what} name is not a string, a constant or a property`,
      );
    return n;
  };
  const addExchange = (name: string, type: ExchangeDef['type'], at: number): void => {
    if (!out.exchanges.some((x) => x.name === name)) out.exchanges.push(exchangeDef(name, type));
    const b = beanAt(at);
    if (b) beanName.set(b, name);
  };
  const addQueue = (name: string, args: AmqpTable, at: number): void => {
    out.queues.push({ name, durable: true, auto_delete: false, arguments: args });
    const b = beanAt(at);
    if (b) beanName.set(b, name);
  };
  for (const [kind, type] of [
    ['Direct', 'direct'],
    ['Topic', 'topic'],
    ['Fanout', 'fanout'],
    ['Headers', 'headers'],
  ] as const) {
    for (const c of code.calls(`new ${kind}Exchange`)) {
      const n = named('exchange', c, splitArgs(c.args)[0]);
      if (n !== undefined) addExchange(n, type, c.at);
    }
    for (const c of code.calls(`ExchangeBuilder.${type}Exchange`)) {
      const n = named('exchange', c, splitArgs(c.args)[0]);
      if (n !== undefined) addExchange(n, type, c.at);
    }
  }
  for (const c of code.calls('new Queue')) {
    const a = splitArgs(c.args);
    const n = named('queue', c, a[0]);
    if (n !== undefined) addQueue(n, a.length > 4 ? argumentsMap(code, values, src, a[4]!, c, str) : {}, c.at);
  }
  for (const kind of ['durable', 'nonDurable'])
    for (const c of code.calls(`QueueBuilder.${kind}`)) {
      const n = named('queue', c, splitArgs(c.args)[0]);
      if (n === undefined) continue;
      addQueue(n, queueBuilderArgs(code, values, src, code.chain(c.end), str), c.at);
    }
  const ref = (e: string): string | undefined => {
    const id = /(\w+)\s*(?:\(\s*\))?\s*$/.exec(e.trim())?.[1];
    if (id === undefined) return str(e);
    return (
      beanName.get(id) ??
      (out.exchanges.some((x) => x.name === id) || out.queues.some((q) => q.name === id) ? id : str(e))
    );
  };
  for (const c of code.calls('BindingBuilder.bind')) {
    const chain = code.chain(c.end);
    const to = chain.find((x) => x.name === 'to');
    const q = ref(c.args);
    const x = to ? ref(to.args) : undefined;
    if (q === undefined || x === undefined) {
      src.note(
        'not-understood',
        code.line(c.at),
        `BindingBuilder.bind(${c.args.trim().slice(0, 40)}).to(...): the queue or exchange is not a bean read here`,
      );
      continue;
    }
    const withKey = chain.find((y) => y.name === 'with');
    out.bindings.push({
      source: x,
      destination: q,
      destination_type:
        out.queues.some((y) => y.name === q) || !out.exchanges.some((y) => y.name === q) ? 'queue' : 'exchange',
      routing_key: withKey ? (str(withKey.args) ?? '') : '',
      arguments: {},
    });
  }
  for (const c of code.calls('new Binding')) {
    const [dest, type, x, key] = splitArgs(c.args);
    const d = str(dest);
    const s = str(x);
    if (d === undefined || s === undefined) continue;
    out.bindings.push({
      source: s,
      destination: d,
      destination_type: /EXCHANGE/.test(type ?? '') ? 'exchange' : 'queue',
      routing_key: str(key) ?? '',
      arguments: {},
    });
  }
  return out;
}

/** QueueBuilder's chained methods as queue arguments (each a row of QUEUE_BUILDER), up to build(). */
function queueBuilderArgs(
  code: CodeText,
  values: JavaValues,
  src: SourceBuilder,
  chain: readonly Call[],
  str: (expr: string | undefined) => string | undefined,
): AmqpTable {
  const args: Record<string, AmqpValue> = {};
  for (const m of chain) {
    if (m.name === 'build') break;
    if (m.name === 'withArgument') {
      const [k, v] = splitArgs(m.args);
      const key = str(k);
      if (key !== undefined) args[key] = argValue(values, v, str);
      continue;
    }
    if (m.name === 'withArguments') {
      Object.assign(args, argumentsMap(code, values, src, m.args, m, str));
      continue;
    }
    const row = QUEUE_BUILDER[m.name];
    if (!row) continue;
    const [arg, kind, fixed] = row;
    if (kind === 'none') args[arg] = fixed!;
    else if (kind === 'overflow') {
      const o = /(\w+)\s*$/.exec(m.args.trim())?.[1] ?? '';
      args[arg] = OVERFLOW[o] ?? o;
    } else {
      const v = kind === 'int' ? values.number(m.args).n : str(m.args);
      if (v === undefined)
        src.note('not-understood', code.line(m.at), `.${m.name}(${m.args.trim().slice(0, 40)}): not a value read here`);
      else args[arg] = v;
    }
  }
  return args;
}

const argValue = (
  values: JavaValues,
  v: string | undefined,
  str: (e: string | undefined) => string | undefined,
): AmqpValue => {
  if (v === undefined) return '';
  const n = values.number(v).n;
  return n !== undefined && !/^\s*"/.test(v) ? n : (str(v) ?? '');
};

const PUTS = new WeakMap<CodeText, Call[]>();
/** every `.put(` of the file, found once */
function putCalls(code: CodeText): Call[] {
  let p = PUTS.get(code);
  if (!p) PUTS.set(code, (p = code.methodCalls('put')));
  return p;
}

/** `Map.of(k, v, ...)`, or a map variable filled by `.put(k, v)` calls in the same file. */
function argumentsMap(
  code: CodeText,
  values: JavaValues,
  src: SourceBuilder,
  expr: string,
  at: { at: number; name: string; args: string },
  str: (e: string | undefined) => string | undefined,
): AmqpTable {
  const args: Record<string, AmqpValue> = {};
  const of = /^\s*Map\s*\.\s*of\s*\(([\s\S]*)\)\s*$/.exec(expr);
  if (of) {
    const parts = splitArgs(of[1]!);
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const k = str(parts[i]);
      if (k !== undefined) args[k] = argValue(values, parts[i + 1], str);
    }
    return args;
  }
  const id = /^\s*([A-Za-z_]\w*)\s*$/.exec(expr)?.[1];
  if (id !== undefined && id !== 'null') {
    for (const p of putCalls(code)) {
      if (!new RegExp(`\\b${id}\\s*$`).test(code.text.slice(Math.max(0, p.at - 80), p.at))) continue;
      const [k, v] = splitArgs(p.args);
      const key = str(k);
      if (key !== undefined) args[key] = argValue(values, v, str);
    }
    return args;
  }
  if (!/^\s*(null|new\s+HashMap\s*<[^>]*>\s*\(\s*\))\s*$/.test(expr))
    src.note('not-understood', code.line(at.at), `${at.name}(...): the arguments map is not read`);
  return args;
}
