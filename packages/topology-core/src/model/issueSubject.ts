/**
 * Which object a validation issue is about, by name: `topology.queues[1].arguments.x-message-ttl`
 * is the queue `wait.q`, field `x-message-ttl`. People read `wait.q: x-message-ttl must be >= 0`,
 * not an index into the JSON; the designer marks the node the issue is on.
 */
import type { ValidationIssue } from './validateResult.js';
import { isPlainObject } from './validateResult.js';
import { nodeId, type NodeId } from './nodeIds.js';

export interface IssueSubject {
  /** what to call it: the queue or exchange name, the consumer's or publisher's id, `binding a -> b`, `policy p` */
  readonly name: string;
  /** the canvas node it is drawn as, when it is one */
  readonly node?: NodeId;
  /** the path of the object (`topology.queues[1]`) */
  readonly objectPath: string;
  /** the rest of the path, readably (`x-message-ttl`, `behaviour.onFailure[0].then`); '' for the object itself */
  readonly field: string;
}

const COLLECTIONS = [
  ['topology.exchanges', 'exchange'],
  ['topology.queues', 'queue'],
  ['topology.bindings', 'binding'],
  ['topology.policies', 'policy'],
  ['consumers', 'consumer'],
  ['publishers', 'publisher'],
  // a RabbitMQ definitions file's own paths (its importer's issues): `queues[1].arguments.x-max-length`
  ['exchanges', 'exchange'],
  ['queues', 'queue'],
  ['bindings', 'binding'],
  ['policies', 'policy'],
] as const;

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The object an issue's path points into, or undefined for a design-level path (`name`, `profile`). */
export function issueSubject(design: unknown, path: string): IssueSubject | undefined {
  for (const [base, kind] of COLLECTIONS) {
    const m = new RegExp(`^${base.replace('.', '\\.')}\\[(\\d+)\\]`).exec(path);
    if (!m) continue;
    const objectPath = m[0];
    const rest = path.slice(objectPath.length).replace(/^\./, '');
    // `arguments.x-message-ttl` and `arguments["x-a b"]` read as the argument's key
    const am = /^arguments(?:\.(.+)|\["(.+)"\])$/.exec(rest);
    const field = am ? (am[1] ?? am[2] ?? rest) : rest;
    const [coll, key] = base.split('.') as [string, string | undefined];
    const root = isPlainObject(design) ? design[coll] : undefined;
    const list = key ? (isPlainObject(root) ? root[key] : undefined) : root;
    const o: unknown = Array.isArray(list) ? list[Number(m[1])] : undefined;
    const obj = isPlainObject(o) ? o : {};
    switch (kind) {
      case 'exchange':
      case 'queue': {
        const name = text(obj.name);
        if (name === undefined) return { name: `${kind} ${m[1]}`, objectPath, field };
        return { name: name || '(default exchange)', node: nodeId(kind, name), objectPath, field };
      }
      case 'consumer':
      case 'publisher': {
        const id = text(obj.id);
        return id === undefined
          ? { name: `${kind} ${m[1]}`, objectPath, field }
          : { name: id, node: nodeId(kind, id), objectPath, field };
      }
      case 'binding':
        return {
          name: `binding ${text(obj.source) || '(default)'} -> ${text(obj.destination) ?? '?'}`,
          objectPath,
          field,
        };
      case 'policy':
        return { name: `policy ${text(obj.name) ?? m[1]}`, objectPath, field };
    }
  }
  return undefined;
}

/** `wait.q: x-message-ttl must be ...` (the message already names the argument), else `wait.q: field: message`. */
export function describeIssue(design: unknown, issue: ValidationIssue): string {
  const s = issueSubject(design, issue.path);
  if (!s) return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
  const lastKey = s.field
    .split(/[.[\]"]+/)
    .filter(Boolean)
    .pop();
  const named = !s.field || (lastKey !== undefined && issue.message.startsWith(lastKey));
  return named ? `${s.name}: ${issue.message}` : `${s.name}: ${s.field}: ${issue.message}`;
}
