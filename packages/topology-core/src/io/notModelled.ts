/**
 * What a definitions file holds that a design has no place for: runtime parameters (shovels,
 * federation upstreams, ...), global parameters, operator policies, users and permissions.
 * None of it is imported, and none of it is ever written back (exports carry empty lists):
 * the user is told what was left out instead of losing it without a word.
 */
import { isPlainObject } from '../model/validateResult.js';
import { countedNames } from './brokerObjects.js';

const COMPONENT_NOUNS: { readonly [component: string]: string } = {
  shovel: 'shovel',
  'federation-upstream': 'federation upstream',
  'federation-upstream-set': 'federation upstream set',
  'vhost-limits': 'vhost limit',
  operator_policy: 'operator policy',
  'mqtt-port-to-vhost-mapping': 'MQTT port mapping',
};

/** `not imported: 2 shovels ("a", "b"), 3 users (...)`, or undefined when there is nothing. `inVhost` picks the vhost's parameters. */
export function notModelledSummary(
  input: { readonly [k: string]: unknown },
  inVhost: (item: { readonly [k: string]: unknown }) => boolean,
): string | undefined {
  const parts: string[] = [];
  const list = (k: string): { readonly [k: string]: unknown }[] =>
    Array.isArray(input[k]) ? (input[k] as unknown[]).filter(isPlainObject) : [];
  const byComponent = new Map<string, string[]>();
  for (const p of list('parameters')) {
    if (!inVhost(p)) continue;
    const c = typeof p.component === 'string' ? p.component : 'unknown';
    byComponent.set(c, [...(byComponent.get(c) ?? []), String(p.name)]);
  }
  for (const [c, names] of byComponent)
    parts.push(countedNames(names.length, COMPONENT_NOUNS[c] ?? `${c} parameter`, names));
  const opol = list('operator_policies').filter(inVhost);
  if (opol.length)
    parts.push(
      countedNames(
        opol.length,
        'operator policy',
        opol.map((p) => String(p.name)),
      ),
    );
  const global = list('global_parameters');
  if (global.length)
    parts.push(
      countedNames(
        global.length,
        'global parameter',
        global.map((p) => String(p.name)),
      ),
    );
  const users = list('users');
  if (users.length)
    parts.push(
      countedNames(
        users.length,
        'user',
        users.map((u) => String(u.name)),
      ),
    );
  const perms = list('permissions').filter(inVhost);
  if (perms.length) parts.push(`${perms.length} permission${perms.length === 1 ? '' : 's'}`);
  const topic = list('topic_permissions').filter(inVhost);
  if (topic.length) parts.push(`${topic.length} topic permission${topic.length === 1 ? '' : 's'}`);
  if (parts.length === 0) return undefined;
  return `not imported: ${parts.join(', ')} (not modelled; never written back by any export)`;
}
