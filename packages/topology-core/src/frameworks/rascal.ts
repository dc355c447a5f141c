/**
 * Rascal (Node.js) configuration, as JSON or a JavaScript/TypeScript module: per vhost the
 * exchanges (topic unless said), queues (amqplib options as arguments), bindings (`"x[a.b] -> q"`
 * strings or objects; `#` unless keyed), subscriptions (prefetch, `redeliveries`) and
 * publications; the `recovery` strategies a subscription gets (rascalRecovery.ts). Defaults from
 * onebeyond/rascal lib/config/baseline.js (21.0.1). Keys Rascal does not accept (it refuses to
 * start: lib/config/validate.js) are named with their line.
 */
import type { ExchangeDef } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { consumerNodeId, exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { sampleTopicKey } from '../routing/topicMatcher.js';
import { queueShape } from './read/amqplibOptions.js';
import { entry, jsValueAt, JsValues, type JsNode } from './read/jsLiteral.js';
import { buildListenerTemplate } from './read/listenerTemplate.js';
import { recoveryRules, type Publication } from './read/rascalRecovery.js';
import { RASCAL_KEYS, rascalKeyNotes } from './read/rascalKeys.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import type { CodeText } from './read/codeText.js';
import type { AppFrameworkDef, AppInput, AppReading, JsReadingContext } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

const BASELINE = 'https://github.com/onebeyond/rascal/blob/master/lib/config/baseline.js';
const RECOVERY = 'https://github.com/onebeyond/rascal/blob/master/lib/amqp/SubscriberError.js';
const D = {
  exchangeType: { value: 'topic', cite: BASELINE },
  bindingKey: { value: '#', cite: BASELINE },
  prefetch: { value: '10', cite: BASELINE },
  redeliveriesLimit: { value: '100', cite: BASELINE },
  redeliveriesCounter: { value: 'stub (always 0: the limit never applies)', cite: BASELINE },
  recovery: { value: 'none: ackOrNack(err) falls back to nack without requeue', cite: RECOVERY },
} as const;

/** The object holding `vhosts` (the configuration's root), wherever the file keeps it. */
function rootOf(code: CodeText): JsNode | undefined {
  const key = /(["'`]?)vhosts\1\s*:/.exec(code.text);
  if (!key) return undefined;
  const open = code.enclosing(key.index, '{');
  return open === undefined ? undefined : jsValueAt(code, open);
}

const names = (n: JsNode | undefined, values: JsValues): { name: string; node?: JsNode; at: number }[] => {
  const v = values.node(n);
  if (v?.kind === 'array')
    return v.items.flatMap((i) => {
      const x = values.node(i);
      if (x?.kind === 'string') return [{ name: x.value, at: x.at }];
      const nm = values.scalar(entry(x, 'name'));
      return nm !== undefined ? [{ name: String(nm), node: x, at: i.at }] : [];
    });
  if (v?.kind === 'object') return v.entries.map((e) => ({ name: e.key, node: values.node(e.value), at: e.keyAt }));
  return [];
};

interface Vhost {
  readonly name: string;
  readonly node: JsNode;
}

type ReadCtx = JsReadingContext;

/** `"x[a.b, c] -> q"` (or `"x -> q"`) as source, keys, destination */
function parseBindingName(s: string): { source: string; keys: string[]; destination: string } | undefined {
  const m = /^\s*([\w:.\-/]*)\s*(?:\[\s*(.*?)\s*\])?\s*->\s*([\w:.\-/]+)\s*$/.exec(s);
  if (!m) return undefined;
  return { source: m[1]!, keys: m[2] ? m[2].split(/[,\s]+/).filter((k) => k !== '') : [], destination: m[3]! };
}

function readTopology(v: Vhost, ctx: ReadCtx): void {
  const { values, code } = ctx;
  for (const x of names(entry(v.node, 'exchanges'), values)) {
    if (x.name === '' || ctx.exchanges.some((e) => e.name === x.name)) continue;
    const type = String(values.scalar(entry(x.node, 'type')) ?? D.exchangeType.value) as ExchangeDef['type'];
    const args = queueShape(entry(x.node, 'options'), values).arguments;
    ctx.exchanges.push({ name: x.name, type, durable: true, auto_delete: false, internal: false, arguments: args });
    ctx.sources[exchangeNodeId(x.name)] = { framework: 'rascal', file: ctx.file, line: code.line(x.at) };
  }
  for (const q of names(entry(v.node, 'queues'), values)) {
    const shape = queueShape(entry(q.node, 'options'), values);
    for (const u of shape.unresolved)
      ctx.notes.push({ line: code.line(q.at), text: `queue ${q.name}: option ${u} is an expression not read here` });
    ctx.queues.push({
      name: q.name,
      durable: shape.durable,
      auto_delete: shape.autoDelete,
      arguments: shape.arguments,
    });
    ctx.sources[queueNodeId(q.name)] = { framework: 'rascal', file: ctx.file, line: code.line(q.at) };
  }
  const b = values.node(entry(v.node, 'bindings'));
  const list: { key: string; node?: JsNode; at: number }[] =
    b?.kind === 'array'
      ? b.items.map((i) => {
          const x = values.node(i);
          return x?.kind === 'string' ? { key: x.value, at: i.at } : { key: '', node: x, at: i.at };
        })
      : b?.kind === 'object'
        ? b.entries.map((e) => ({ key: e.key, node: values.node(e.value), at: e.keyAt }))
        : [];
  for (const item of list) {
    const parsed = parseBindingName(item.key);
    const source = String(values.scalar(entry(item.node, 'source')) ?? parsed?.source ?? '');
    const destination = String(values.scalar(entry(item.node, 'destination')) ?? parsed?.destination ?? '');
    if (!destination) {
      ctx.notes.push({ line: code.line(item.at), text: `binding ${item.key || '(object)'}: no destination read` });
      continue;
    }
    const keyList = values.node(entry(item.node, 'bindingKeys'));
    const keys = [
      ...(parsed?.keys ?? []),
      ...(keyList?.kind === 'array' ? keyList.items.map((k) => String(values.scalar(k) ?? '')) : []),
      ...(values.scalar(entry(item.node, 'bindingKey')) !== undefined
        ? [String(values.scalar(entry(item.node, 'bindingKey')))]
        : []),
    ];
    const type =
      String(values.scalar(entry(item.node, 'destinationType')) ?? 'queue') === 'exchange' ? 'exchange' : 'queue';
    for (const k of keys.length ? [...new Set(keys)] : [D.bindingKey.value])
      ctx.bindings.push({ source, destination, destination_type: type, routing_key: k, arguments: {} });
  }
}

function publicationsOf(root: JsNode, vhosts: readonly Vhost[], values: JsValues): Map<string, Publication> {
  const out = new Map<string, Publication>();
  const add = (n: JsNode | undefined): void => {
    for (const p of names(n, values)) {
      const cc = values.node(entry(entry(p.node, 'options'), 'CC'));
      const rk = values.scalar(entry(p.node, 'routingKey'));
      out.set(p.name, {
        exchange: String(values.scalar(entry(p.node, 'exchange')) ?? ''),
        ...(rk !== undefined ? { routingKey: String(rk) } : {}),
        cc:
          cc?.kind === 'array'
            ? cc.items.map((i) => String(values.scalar(i) ?? ''))
            : typeof values.scalar(cc) === 'string'
              ? [String(values.scalar(cc))]
              : [],
      });
    }
  };
  add(entry(root, 'publications'));
  for (const v of vhosts) add(entry(v.node, 'publications'));
  return out;
}

/** The strategies a subscription gets: its own `recovery`, else the configuration's one, else the first of several (said), else none. */
function strategiesFor(
  sub: { name: string; node?: JsNode; at: number },
  root: JsNode,
  ctx: ReadCtx,
  src: SourceBuilder,
): JsNode[] {
  const { values, code } = ctx;
  const asList = (n: JsNode | undefined): JsNode[] => {
    const v = values.node(n);
    return v?.kind === 'array' ? v.items.map((i) => values.node(i) ?? i) : v?.kind === 'object' ? [v] : [];
  };
  const named = names(entry(root, 'recovery'), values);
  const own = values.node(entry(sub.node, 'recovery'));
  if (own?.kind === 'string') {
    const r = named.find((x) => x.name === own.value);
    if (r) return asList(r.node);
  } else if (own) return asList(own);
  if (named.length === 1) return asList(named[0]!.node);
  if (named.length > 1) {
    const pick = named.find((x) => x.name === sub.name) ?? named[0]!;
    src.note(
      'not-understood',
      code.line(pick.at),
      `the configuration names ${named.length} recovery strategies (${named.map((x) => x.name).join(', ')}) and the application's code picks one per error: ${pick.name} is read`,
    );
    return asList(pick.node);
  }
  // a literal recovery passed in the same file's code: ackOrNack(err, [...])
  for (const m of code.text.matchAll(/\backOrNack\s*\(\s*[A-Za-z_$][\w$.]*\s*(?:as\s+\w+\s*)?,\s*/g)) {
    const v = jsValueAt(code, m.index + m[0].length);
    const list = asList(v);
    if (list.length && values.scalar(entry(list[0], 'strategy')) !== undefined) return list;
  }
  src.defaulted('recovery', D.recovery);
  return [];
}

function readSubscription(
  sub: { name: string; node?: JsNode; at: number; vhost: string },
  root: JsNode,
  ctx: ReadCtx,
  publications: Map<string, Publication>,
): ConsumerSpec | undefined {
  const { values, code } = ctx;
  const queue = String(values.scalar(entry(sub.node, 'queue')) ?? '');
  if (!ctx.queues.some((q) => q.name === queue)) {
    ctx.notes.push({
      line: code.line(sub.at),
      text: `subscription ${sub.name}: queue "${queue}" is not declared here (Rascal refuses to start)`,
    });
    return undefined;
  }
  const src = new SourceBuilder('rascal', ctx.file);
  const line = code.line(sub.at);
  const prefetchV = values.scalar(entry(sub.node, 'prefetch'));
  const prefetch =
    prefetchV !== undefined
      ? Number(src.read('prefetch', String(prefetchV), line))
      : Number(src.defaulted('prefetch', D.prefetch));
  const red = entry(sub.node, 'redeliveries');
  const counterName = String(values.scalar(entry(red, 'counter')) ?? 'stub');
  const counterType = String(
    values.scalar(entry(entry(entry(entry(root, 'redeliveries'), 'counters'), counterName), 'type')) ?? counterName,
  );
  const limit = Number(values.scalar(entry(red, 'limit')) ?? D.redeliveriesLimit.value);
  if (red) src.read('redeliveries', `limit ${limit}, counter ${counterName} (${counterType})`, code.line(red.at));
  else src.defaulted('redeliveries', D.redeliveriesCounter);
  const binding = ctx.bindings.find((b) => b.destination === queue);
  const strategies = strategiesFor(sub, root, ctx, src);
  // Rascal runs the configuration as the file evaluates; the application passes the strategies to ackOrNack
  ctx.runnable[sub.name] = {
    vhost: sub.vhost,
    subscription: sub.name,
    ...(strategies.length ? { recovery: strategies.map((x) => values.plain(x)) } : {}),
  };
  const rules = recoveryRules(strategies, {
    values,
    src,
    line: (at) => code.line(at),
    queue,
    entryKey: binding ? sampleTopicKey(binding.routing_key) || binding.source : queue,
    publications,
    ...(counterType !== 'stub' ? { redeliveryLimit: limit } : {}),
  });
  ctx.sources[consumerNodeId(sub.name)] = src.build(line);
  return {
    id: sub.name,
    queue,
    label: `Rascal subscription ${sub.name}`,
    prefetch,
    behaviour: { kind: 'worker', onFailure: rules },
  };
}

function readRascal(input: AppInput): AppReading {
  const code = input.code();
  const file = input.file.name;
  const values = new JsValues(code, input.env);
  const root = rootOf(code);
  const vhostsNode = values.node(entry(root, 'vhosts'));
  if (!root || vhostsNode?.kind !== 'object')
    throw new AppConfigFailure({ file, message: 'no Rascal configuration (an object with vhosts: { ... }) found' });
  const vhosts: Vhost[] = vhostsNode.entries.flatMap((e) => {
    const n = values.node(e.value);
    return n?.kind === 'object' ? [{ name: e.key, node: n }] : [];
  });
  const ctx: ReadCtx = {
    code,
    values,
    file,
    exchanges: [],
    queues: [],
    bindings: [],
    sources: {},
    notes: [],
    runnable: {},
  };
  for (const v of vhosts) readTopology(v, ctx);
  if (vhosts.length > 1)
    ctx.notes.push({
      line: code.line(vhostsNode.at),
      text: `${vhosts.length} vhosts (${vhosts.map((v) => v.name).join(', ')}): read as one design`,
    });
  const publications = publicationsOf(root, vhosts, values);
  const subs = [
    // a subscription at the root names its vhost (else the first)
    ...names(entry(root, 'subscriptions'), values).map((x) => ({
      ...x,
      vhost: String(values.scalar(entry(x.node, 'vhost')) ?? vhosts[0]?.name ?? '/'),
    })),
    ...vhosts.flatMap((v) => names(entry(v.node, 'subscriptions'), values).map((x) => ({ ...x, vhost: v.name }))),
  ];
  const consumers = subs.flatMap((s) => readSubscription(s, root, ctx, publications) ?? []);
  const unread: string[] = [];
  const config = values.plain(root, unread);
  for (const r of Object.values(ctx.runnable)) Object.assign(r, { config, ...(unread.length ? { unread } : {}) });
  const keyNotes = rascalKeyNotes(root, vhosts, values, code);
  const first = consumers[0] ? ctx.sources[consumerNodeId(consumers[0].id)] : undefined;
  if (first && keyNotes.length)
    ctx.sources[consumerNodeId(consumers[0]!.id)] = { ...first, notes: [...(first.notes ?? []), ...keyNotes] };
  const base = {
    framework: 'rascal' as const,
    exchanges: ctx.exchanges,
    queues: ctx.queues,
    bindings: ctx.bindings,
    publishers: [],
    notes: ctx.notes,
  };
  if (consumers.length > 0) return { ...base, consumers, sources: ctx.sources, runnable: ctx.runnable };
  // no subscription: Rascal subscribes by name in the application's code; read one on each work queue
  const src = new SourceBuilder('rascal', file);
  src.defaulted('prefetch', D.prefetch);
  const rules = recoveryRules(strategiesFor({ name: '', at: root.at }, root, { ...ctx }, src), {
    values,
    src,
    line: (at) => code.line(at),
    queue: '',
    entryKey: '',
    publications,
  });
  for (const n of keyNotes) src.addNote(n);
  return {
    ...base,
    consumers: [],
    sources: ctx.sources,
    listener: buildListenerTemplate({
      consumer: {
        label: 'Rascal subscription',
        prefetch: Number(D.prefetch.value),
        behaviour: { kind: 'worker', onFailure: rules },
      },
      source: src.build(code.line(root.at)),
      standIn: 'rascal.queue',
      standInId: 'subscription-rascal.queue',
      standInNote:
        'no queue is declared here: the subscription reads a stand-in queue "rascal.queue" (give --definitions)',
    }),
  };
}

export const rascal: AppFrameworkDef = {
  id: 'rascal',
  ...FRAMEWORK_TRAITS['rascal'],
  fileKinds: ['json', 'javascript'],
  looksFor: 'a Rascal configuration (vhosts: { ... })',
  detect: (input) =>
    input.kind === 'json'
      ? /"vhosts"\s*:\s*\{/.test(input.file.text)
      : /vhosts\s*:\s*\{|["']vhosts["']\s*:\s*\{/.test(input.file.text) &&
        // the module names Rascal, or has Rascal's own shape: vhosts with subscriptions
        (/\brascal\b/i.test(input.file.text) || /["']?subscriptions["']?\s*:\s*\{/.test(input.file.text)),
  read: readRascal,
  defaults: D,
  keys: RASCAL_KEYS,
};
