/**
 * Where a canvas object (`queue:orders.q`, `exchange:retry`, `consumer:w1`) is written in the
 * file it was read from: a design JSON (`topology.queues[i]`, `consumers[i]`) or a RabbitMQ
 * definitions JSON (`queues[i]` of the vhost that was read). For reports that point into the
 * user's file. Objects the file does not hold (the default exchange, a scaffolded consumer) have
 * no location.
 */
import { parseNodeId } from '../model/nodeIds.js';
import { jsonLocations, type SourcePosition } from './jsonLocations.js';

export interface ObjectLocation extends SourcePosition {
  /** JSON pointer of the object in the file */
  readonly pointer: string;
}

type Doc = Record<string, unknown>;
const named = (v: unknown, key: 'name' | 'id', name: string, vhost: string | undefined): boolean => {
  if (!v || typeof v !== 'object') return false;
  const o = v as Doc;
  return o[key] === name && (vhost === undefined || o.vhost === undefined || o.vhost === vhost);
};

export function objectLocator(
  text: string,
  opts: { readonly vhost?: string } = {},
): (id: string) => ObjectLocation | undefined {
  const positions = jsonLocations(text, 3);
  let doc: Doc | undefined;
  try {
    const v: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    doc = v && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : undefined;
  } catch {
    doc = undefined;
  }
  if (!positions || !doc) return () => undefined;
  const isDesign = typeof doc.topology === 'object' && doc.topology !== null;
  const topo = (isDesign ? doc.topology : doc) as Doc;
  const base = isDesign ? '/topology' : '';
  // one index per list, built on first use (a 10,000-queue file, thousands of findings)
  const indexes = new Map<string, Map<string, number>>();
  const find = (
    list: unknown,
    at: string,
    key: 'name' | 'id',
    name: string,
    vhost?: string,
  ): ObjectLocation | undefined => {
    if (!Array.isArray(list)) return undefined;
    let index = indexes.get(at);
    if (!index) {
      index = new Map();
      list.forEach((v, i) => {
        if (named(v, key, String((v as Doc | null)?.[key]), vhost) && !index!.has(String((v as Doc)[key])))
          index!.set(String((v as Doc)[key]), i);
      });
      indexes.set(at, index);
    }
    const i = index.get(name);
    const pointer = `${at}/${i}`;
    const p = i === undefined ? undefined : positions.get(pointer);
    return p ? { pointer, ...p } : undefined;
  };
  const cache = new Map<string, ObjectLocation | undefined>();
  return (id) => {
    if (cache.has(id)) return cache.get(id);
    const node = parseNodeId(id);
    let loc: ObjectLocation | undefined;
    if (node?.kind === 'queue')
      loc = find(topo.queues, `${base}/queues`, 'name', node.name, isDesign ? undefined : opts.vhost);
    else if (node?.kind === 'exchange')
      loc = find(topo.exchanges, `${base}/exchanges`, 'name', node.name, isDesign ? undefined : opts.vhost);
    else if (node?.kind === 'consumer' && isDesign) loc = find(doc!.consumers, '/consumers', 'id', node.name);
    else if (node?.kind === 'publisher' && isDesign) loc = find(doc!.publishers, '/publishers', 'id', node.name);
    cache.set(id, loc);
    return loc;
  };
}
