/**
 * `@RabbitListener` annotations: the queues each listens to (`queues = "q"`, `queues = {A, B}`,
 * `queuesToDeclare = @Queue("q")`, `bindings = @QueueBinding(value = @Queue(...), exchange =
 * @Exchange(value = "x", type = ExchangeTypes.TOPIC), key = {"a.*"})`); the queues, exchanges and
 * bindings the annotations declare are added to the file's objects.
 */
import type { AmqpValue, ExchangeDef } from '../../model/definitions.js';
import { splitArgs, type CodeText } from './codeText.js';
import type { JavaBeans } from './javaBeans.js';
import type { SourceBuilder } from './sourceBuilder.js';

export interface Listened {
  readonly queue: string;
  /** offset of the annotation */
  readonly at: number;
}

/** An annotation attribute's value text (`name = value` at the top level), or the lone positional value for `value`. */
function attr(args: string, name: string): string | undefined {
  const parts = splitArgs(args);
  for (const p of parts) {
    const m = /^([A-Za-z_]\w*)\s*=\s*([\s\S]*)$/.exec(p);
    if (m && m[1] === name) return m[2]!.trim();
  }
  if (name === 'value' && parts.length === 1 && !/^[A-Za-z_]\w*\s*=/.test(parts[0]!)) return parts[0];
  return undefined;
}

/** `{a, b}` or `a` as a list of element texts. */
const list = (v: string | undefined): string[] =>
  v === undefined ? [] : /^\{[\s\S]*\}$/.test(v) ? splitArgs(v.slice(1, -1)) : [v];

/** `@Name(args)` -> args, or undefined */
const annotationArgs = (v: string, name: string): string | undefined =>
  new RegExp(`^@${name}\\s*\\(([\\s\\S]*)\\)$`).exec(v.trim())?.[1] ??
  (new RegExp(`^@${name}$`).test(v.trim()) ? '' : undefined);

const EXCHANGE_TYPES: Readonly<Record<string, ExchangeDef['type']>> = {
  DIRECT: 'direct',
  TOPIC: 'topic',
  FANOUT: 'fanout',
  HEADERS: 'headers',
};

export function readRabbitListeners(
  code: CodeText,
  src: SourceBuilder,
  str: (expr: string | undefined) => string | undefined,
  beans: JavaBeans,
): Listened[] {
  const out: Listened[] = [];
  const re = /@RabbitListener\s*\(/g;
  for (const m of code.text.matchAll(re)) {
    const b = code.balanced(m.index + m[0].length - 1);
    if (!b) continue;
    const args = b.inner;
    const line = code.line(m.index);
    const names: (string | undefined)[] = list(attr(args, 'queues')).map(str);
    for (const q of list(attr(args, 'queuesToDeclare')))
      names.push(declareQueue(annotationArgs(q, 'Queue'), str, beans));
    for (const qb of list(attr(args, 'bindings')))
      names.push(queueBinding(annotationArgs(qb, 'QueueBinding'), str, beans));
    // a lone string is read as the queue (the form some code uses)
    if (names.length === 0 && /^\s*"/.test(args)) names.push(str(attr(args, 'value')));
    if (names.length === 0 || names.some((n) => n === undefined))
      src.note(
        'not-understood',
        line,
        `@RabbitListener(${args.trim().replace(/\s+/g, ' ').slice(0, 80)}): queue names not read (a property not given, or an expression)`,
      );
    for (const n of names) if (n !== undefined) out.push({ queue: n, at: m.index });
  }
  return out;
}

/** `@Queue(value = "q", arguments = {@Argument(name = "x-...", value = "...", type = "java.lang.Integer")})`: declared, its name returned. */
function declareQueue(
  args: string | undefined,
  str: (e: string | undefined) => string | undefined,
  beans: JavaBeans,
): string | undefined {
  if (args === undefined) return undefined;
  const name = str(attr(args, 'value') ?? attr(args, 'name'));
  if (name === undefined) return undefined;
  const qArgs: Record<string, AmqpValue> = {};
  for (const a of list(attr(args, 'arguments'))) {
    const inner = annotationArgs(a, 'Argument');
    if (inner === undefined) continue;
    const k = str(attr(inner, 'name'));
    const v = str(attr(inner, 'value'));
    if (k === undefined || v === undefined) continue;
    const type = str(attr(inner, 'type')) ?? 'java.lang.String';
    qArgs[k] =
      /Integer|Long|Short/.test(type) && /^-?\d+$/.test(v) ? Number(v) : /Boolean/.test(type) ? v === 'true' : v;
  }
  if (!beans.queues.some((q) => q.name === name))
    beans.queues.push({
      name,
      durable: str(attr(args, 'durable')) !== 'false',
      auto_delete: str(attr(args, 'autoDelete')) === 'true',
      arguments: qArgs,
    });
  return name;
}

/** `@QueueBinding(value = @Queue(...), exchange = @Exchange(...), key = ...)`: the queue, exchange and bindings declared. */
function queueBinding(
  args: string | undefined,
  str: (e: string | undefined) => string | undefined,
  beans: JavaBeans,
): string | undefined {
  if (args === undefined) return undefined;
  const q = declareQueue(annotationArgs(attr(args, 'value') ?? '', 'Queue'), str, beans);
  const xa = annotationArgs(attr(args, 'exchange') ?? '', 'Exchange');
  const x = xa !== undefined ? str(attr(xa, 'value') ?? attr(xa, 'name')) : undefined;
  if (q === undefined || x === undefined) return q;
  const t = xa !== undefined ? attr(xa, 'type') : undefined;
  const type =
    EXCHANGE_TYPES[/(\w+)\s*$/.exec(t ?? '')?.[1]?.toUpperCase() ?? ''] ??
    (str(t) as ExchangeDef['type'] | undefined) ??
    'direct';
  if (!beans.exchanges.some((e) => e.name === x))
    beans.exchanges.push({ name: x, type, durable: true, auto_delete: false, internal: false, arguments: {} });
  const keys = list(attr(args, 'key')).map(str);
  for (const k of keys.length ? keys : [''])
    beans.bindings.push({ source: x, destination: q, destination_type: 'queue', routing_key: k ?? '', arguments: {} });
  return q;
}
