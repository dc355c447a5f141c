/**
 * RabbitMQ objects kept in Kubernetes YAML, read as the definitions they declare:
 * - messaging-topology-operator resources (`rabbitmq.com/v1beta1` Queue, Exchange, Binding, Policy;
 *   `v1alpha1` SuperStream), with the operator's defaults: a Queue or Exchange without `durable` is
 *   transient, an Exchange without `type` is direct, a Policy without `applyTo` applies to all
 *   (rabbitmq/messaging-topology-operator api/ and internal/: GenerateQueueSettings, the CRDs' defaults);
 *   the rest (User, Permission, Vhost, Federation, Shovel, OperatorPolicy) become what a definitions
 *   file holds for them, so the import names them as not imported;
 * - a definitions JSON embedded in a ConfigMap, a Secret's stringData, or a Helm values file
 *   (`extraSecrets: load-definition: load_definition.json: |`), found wherever a string holds one.
 * A RabbitmqCluster declares no queue: it is named with where its definitions come from.
 * This is the reverse of io/operator.ts (export --format operator).
 */
import { LineCounter, parseAllDocuments } from 'yaml';
import { holdsRabbitObjects } from '../model/appFileKind.js';
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';
import { looksLikeDefinitions } from './definitions.js';

type Obj = { readonly [k: string]: unknown };

export interface ManifestDefinitions {
  /** a definitions document: the resources' objects (with vhost fields) and every embedded definitions JSON, merged */
  readonly value: { readonly [k: string]: unknown };
  /** where each part was read from, and what the manifests hold that declares no object */
  readonly notes: readonly ValidationIssue[];
}

export type ManifestReading =
  | { readonly ok: true; readonly reading: ManifestDefinitions }
  | { readonly ok: false; readonly error: ValidationIssue };

const LISTS = [
  'vhosts',
  'users',
  'permissions',
  'topic_permissions',
  'parameters',
  'policies',
  'operator_policies',
  'queues',
  'exchanges',
  'bindings',
] as const;
type Lists = Record<(typeof LISTS)[number], Obj[]>;

const str = (v: unknown, dflt = ''): string => (typeof v === 'string' ? v : dflt);
const table = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const vhostOf = (spec: Obj): string => str(spec.vhost, '/');

/**
 * The definitions a YAML text declares, or undefined when it is not YAML holding RabbitMQ objects
 * (the caller keeps its own answer, a JSON error say). A YAML error or a Helm template is an error.
 */
export function definitionsFromManifests(text: string): ManifestReading | undefined {
  if (/^\s*[[{]/.test(text) || !holdsRabbitObjects(text)) return undefined;
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    const e = d.errors[0];
    if (!e) continue;
    const at = lines.linePos(e.pos[0]);
    const template = /\{\{[^}]*\}\}/.test(text)
      ? ' (the file has {{...}} outside the JSON strings: a Helm template; render it first, with helm template)'
      : '';
    return {
      ok: false,
      error: {
        path: '',
        code: 'yaml-syntax',
        message: `not valid YAML: line ${at.line}, column ${at.col}: ${e.message.split('\n')[0]}${template}`,
      },
    };
  }
  const lists = Object.fromEntries(LISTS.map((k) => [k, []])) as unknown as Lists;
  const notes: ValidationIssue[] = [];
  const read: string[] = [];
  const embedded: { where: string; value: Obj; helm: readonly string[] }[] = [];
  const clusters: string[] = [];
  list.forEach((d, i) => {
    const v: unknown = d.toJS({ maxAliasCount: 100 });
    if (!isPlainObject(v)) return;
    const where = `document ${i + 1}`;
    const kind = str(v.kind);
    const name = str(table(v.metadata).name);
    if (str(v.apiVersion).startsWith('rabbitmq.com/')) {
      if (kind === 'RabbitmqCluster') clusters.push(describeCluster(name, v));
      else if (addResource(lists, kind, name, table(v.spec))) read.push(kind);
      else notes.push(notReadNote(where, kind, name));
      return;
    }
    const start = d.range[0];
    for (const found of embeddedDefinitions(v, kind === 'ConfigMap' || kind === 'Secret' ? `${kind} "${name}"` : '')) {
      // the line of the key holding it: its last segment, written as a key, from the document's start
      const key = found.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const at = new RegExp(`(^|\\n)\\s*["']?${key}["']?\\s*:`).exec(text.slice(start));
      const line = at ? lines.linePos(start + at.index + at[1]!.length).line : lines.linePos(start).line;
      embedded.push({ where: `${found.where} (line ${line})`, value: found.value, helm: found.helm });
    }
  });
  for (const e of embedded)
    for (const k of LISTS) if (Array.isArray(e.value[k])) lists[k].push(...(e.value[k] as Obj[]));
  const objects = lists.queues.length + lists.exchanges.length + lists.bindings.length + lists.policies.length;
  if (read.length === 0 && embedded.length === 0) return { ok: false, error: nothingDeclared(clusters, notes) };
  if (read.length > 0)
    notes.push({
      path: '',
      code: 'read-from',
      message: `read ${countKinds(read)} (messaging-topology-operator resources)`,
    });
  for (const e of embedded)
    notes.push({
      path: '',
      code: 'read-from',
      message: `read the definitions JSON in ${e.where}${e.helm.length > 0 ? `; its strings hold Helm expressions (${e.helm.slice(0, 3).join(', ')}${e.helm.length > 3 ? ', ...' : ''}), which Helm renders before RabbitMQ reads the file: read as written` : ''}`,
    });
  for (const c of clusters) notes.push({ path: '', code: 'not-imported', message: c });
  const first = embedded[0]?.value;
  const version = first && (first.rabbitmq_version ?? first.rabbit_version);
  const value: Obj = {
    ...(typeof version === 'string' ? { rabbit_version: version } : {}),
    ...Object.fromEntries(
      LISTS.filter((k) => lists[k].length > 0 || (k === 'queues' && objects === 0)).map((k) => [k, lists[k]]),
    ),
  };
  return { ok: true, reading: { value, notes } };
}

/** One messaging-topology-operator resource as the object(s) a definitions file would hold; false: a kind with none. */
function addResource(lists: Lists, kind: string, name: string, spec: Obj): boolean {
  const vhost = vhostOf(spec);
  const args = table(spec.arguments);
  switch (kind) {
    case 'Queue':
      // the operator writes `type` into x-queue-type; durable defaults to false (GenerateQueueSettings)
      lists.queues.push({
        name: str(spec.name),
        vhost,
        durable: spec.durable === true,
        auto_delete: spec.autoDelete === true,
        arguments: typeof spec.type === 'string' && spec.type !== '' ? { ...args, 'x-queue-type': spec.type } : args,
      });
      return true;
    case 'Exchange':
      lists.exchanges.push({
        name: str(spec.name),
        vhost,
        type: str(spec.type, 'direct'),
        durable: spec.durable === true,
        auto_delete: spec.autoDelete === true,
        internal: false,
        arguments: args,
      });
      return true;
    case 'Binding':
      lists.bindings.push({
        source: str(spec.source),
        vhost,
        destination: str(spec.destination),
        destination_type: str(spec.destinationType),
        routing_key: str(spec.routingKey),
        arguments: args,
      });
      return true;
    case 'Policy':
    case 'OperatorPolicy':
      (kind === 'Policy' ? lists.policies : lists.operator_policies).push({
        name: str(spec.name),
        vhost,
        pattern: str(spec.pattern),
        'apply-to': str(spec.applyTo, kind === 'Policy' ? 'all' : 'queues'),
        priority: typeof spec.priority === 'number' ? spec.priority : 0,
        definition: table(spec.definition),
      });
      return true;
    case 'SuperStream':
      addSuperStream(lists, name, spec);
      return true;
    case 'Vhost':
      lists.vhosts.push({ name: str(spec.name) });
      return true;
    case 'User':
      lists.users.push({ name: name, tags: Array.isArray(spec.tags) ? spec.tags : [] });
      return true;
    case 'Permission':
    case 'TopicPermission':
      (kind === 'Permission' ? lists.permissions : lists.topic_permissions).push({
        user: str(spec.user, str(table(spec.userReference).name)),
        vhost,
      });
      return true;
    case 'Federation':
    case 'Shovel':
      lists.parameters.push({
        component: kind === 'Federation' ? 'federation-upstream' : 'shovel',
        name: str(spec.name, name),
        vhost,
        value: {},
      });
      return true;
  }
  return false;
}

/**
 * A super stream as the operator declares it (internal/managedresource): a durable direct exchange
 * named for the resource, and per routing key ("0".."partitions-1" unless given) a durable stream
 * NAME-KEY bound with that key and x-stream-partition-order.
 */
function addSuperStream(lists: Lists, name: string, spec: Obj): void {
  const vhost = vhostOf(spec);
  const n = typeof spec.partitions === 'number' ? spec.partitions : 3;
  const keys =
    Array.isArray(spec.routingKeys) && spec.routingKeys.length > 0
      ? spec.routingKeys.map((k) => String(k))
      : Array.from({ length: n }, (_, i) => String(i));
  lists.exchanges.push({
    name,
    vhost,
    type: 'direct',
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: {},
  });
  keys.forEach((key, i) => {
    lists.queues.push({
      name: `${name}-${key}`,
      vhost,
      durable: true,
      auto_delete: false,
      arguments: { 'x-queue-type': 'stream' },
    });
    lists.bindings.push({
      source: name,
      vhost,
      destination: `${name}-${key}`,
      destination_type: 'queue',
      routing_key: key,
      arguments: { 'x-stream-partition-order': i },
    });
  });
}

interface Embedded {
  /** the key path to it (`rabbitmq.extraSecrets.load-definition.load_definition.json`) and its last key */
  readonly where: string;
  readonly key: string;
  readonly value: Obj;
  /** Helm expressions inside its strings (`{{ .Values.auth.username }}`) */
  readonly helm: readonly string[];
}

/** Strings holding a definitions JSON anywhere in a document, with the key path to each. */
function embeddedDefinitions(v: unknown, prefix: string): Embedded[] {
  const out: Embedded[] = [];
  const walk = (x: unknown, path: string, key: string, depth: number): void => {
    if (depth > 40) return;
    if (typeof x === 'string') {
      if (!/^\s*\{/.test(x) || !holdsRabbitObjects(x)) return;
      try {
        const parsed: unknown = JSON.parse(x);
        if (looksLikeDefinitions(parsed) && isPlainObject(parsed))
          out.push({
            where: prefix === '' ? path : `${prefix} ${path}`,
            key,
            value: parsed,
            helm: [...new Set(x.match(/\{\{[^}]*\}\}/g) ?? [])],
          });
      } catch {
        // a string that is not JSON (a template, say) is not read
      }
      return;
    }
    if (Array.isArray(x)) x.forEach((y, i) => walk(y, `${path}[${i}]`, key, depth + 1));
    else if (isPlainObject(x))
      for (const [k, y] of Object.entries(x)) walk(y, path === '' ? k : `${path}.${k}`, k, depth + 1);
  };
  walk(v, '', '', 0);
  return out;
}

/** A RabbitmqCluster: no queues of its own; where its definitions are loaded from (load_definitions, the volume it mounts). */
function describeCluster(name: string, v: Obj): string {
  const spec = table(v.spec);
  const config = str(table(spec.rabbitmq).additionalConfig);
  const path = /^\s*load_definitions\s*=\s*(\S+)/m.exec(config)?.[1];
  const podSpec = table(table(table(table(table(spec.override).statefulSet).spec).template).spec);
  const sources = (Array.isArray(podSpec.volumes) ? podSpec.volumes : [])
    .filter(isPlainObject)
    .map((vol) =>
      isPlainObject(vol.configMap)
        ? `ConfigMap "${str(vol.configMap.name)}"`
        : isPlainObject(vol.secret)
          ? `Secret "${str(vol.secret.secretName)}"`
          : undefined,
    )
    .filter((s): s is string => s !== undefined);
  const from = path
    ? `; its definitions are loaded from ${path} (load_definitions in additionalConfig)${sources.length ? `, mounted from ${sources.join(', ')}` : ''}: read that file, or the ConfigMap holding it`
    : '';
  return `RabbitmqCluster "${name}" is the cluster itself${from}`;
}

function notReadNote(where: string, kind: string, name: string): ValidationIssue {
  return {
    path: '',
    code: 'not-imported',
    message: `${where}: ${kind} "${name}" (rabbitmq.com) declares nothing a design holds: not imported`,
  };
}

function nothingDeclared(clusters: readonly string[], notes: readonly ValidationIssue[]): ValidationIssue {
  const seen = [...clusters, ...notes.map((n) => n.message)];
  return {
    path: '',
    code: 'definitions-empty',
    message: `the manifests declare no queue, exchange, binding or policy and hold no definitions JSON${seen.length ? `: ${seen.join('; ')}` : ''}`,
  };
}

function countKinds(kinds: readonly string[]): string {
  const n = new Map<string, number>();
  for (const k of kinds) n.set(k, (n.get(k) ?? 0) + 1);
  return [...n].map(([k, c]) => `${c} ${k}${c === 1 ? '' : 's'}`).join(', ');
}
