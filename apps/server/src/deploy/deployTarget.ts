/**
 * Where a design is deployed: a vhost and a name prefix. Two designs never collide because
 * each gets its own prefix (default: derived from the design name) or its own vhost.
 * Prefixing is a rename of every name, so it goes through the core's reference walker
 * (bindings, dead-letter exchange and routing key, alternate exchanges, policies, consumers,
 * counters, republish targets, publishers).
 */
import { mapReferences, type Design, type NameReference, type Topology } from '@retry-studio/topology-core/model';
import type { DeployTarget } from '@retry-studio/contract';
import { renamePolicy } from './renamePolicy.js';

export type { DeployTarget };

export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return s === '' ? 'design' : s;
}

/** Explicit prefix or vhost wins; otherwise `rs.<slug>.` in `/`. */
export function resolveTarget(
  designName: string,
  opts: { prefix?: string; vhost?: string; urlVhost?: string },
): DeployTarget {
  if (opts.vhost !== undefined) return { vhost: opts.vhost, prefix: opts.prefix ?? '' };
  return { vhost: opts.urlVhost ?? '/', prefix: opts.prefix ?? `rs.${slugify(designName)}.` };
}

export function deploymentId(t: DeployTarget): string {
  return `${t.vhost}|${t.prefix}`;
}

export class Renamer {
  constructor(readonly prefix: string) {}
  /** the default exchange ('') is never renamed */
  name(n: string): string {
    return n === '' ? '' : this.prefix + n;
  }
  /** strip the prefix from a real broker name (names the design does not own pass through) */
  back(n: string): string {
    return this.prefix !== '' && n.startsWith(this.prefix) ? n.slice(this.prefix.length) : n;
  }
  owns(n: string): boolean {
    return this.prefix === '' || n.startsWith(this.prefix);
  }
}

/** The names a prefix changes: every declaration and reference; routing keys stay keys. */
export const prefixedName =
  (r: Renamer) =>
  (ref: NameReference): string =>
    ref.kind === 'routingKey' ? ref.name : r.name(ref.name);

export function renameTopology(t: Topology, r: Renamer): Topology {
  const walked = mapReferences({ topology: t }, prefixedName(r)).topology;
  if (!t.policies || !walked.policies) return walked;
  const policies = walked.policies;
  return { ...walked, policies: t.policies.map((p, i) => renamePolicy(p, policies[i]!, r, t)) };
}

/** The design as it lives on the broker: every name the reference walker finds, prefixed. */
export function renameDesign(d: Design, r: Renamer): Design {
  return { ...mapReferences(d, prefixedName(r)), topology: renameTopology(d.topology, r) };
}
