/** Which templates the tuner may choose from on a broker profile, and why the others are left out. */
import type { BrokerProfileId } from '../model/design.js';
import { TEMPLATES, getTemplate } from '../templates/registry.js';
import type { RetryTemplate } from '../templates/types.js';
import { checkDeclarations } from '../upgrade/declarationRules.js';

const defaultDesign = (t: RetryTemplate) =>
  t.build(Object.fromEntries(t.params.map((p) => [p.name, p.default]))).design;

/** Why a template cannot run on a profile, or undefined when it can. */
export function whyNotOnProfile(t: RetryTemplate, profile: BrokerProfileId, noPlugins: boolean): string | undefined {
  if (noPlugins && t.requires.length > 0) return `needs the ${t.requires.join(', ')} plugin (--no-plugins)`;
  if (t.profile !== '3.10' && profile === '3.10') return `needs RabbitMQ ${t.profile}`;
  // the radlx plugin is built for 3.13.2 to 4.1.x only (lint rule plugin-required)
  if (t.requires.includes('radlx') && profile === '4.3')
    return 'the radlx plugin exists for RabbitMQ 3.13.2 to 4.1.x only';
  const design = defaultDesign(t);
  // what the broker refuses to declare, as the upgrade check knows it (4.3: no x-delayed-message exchange)
  const refused = checkDeclarations({ topology: design.topology, from: profile, to: profile }).find(
    (f) => f.kind === 'refused',
  );
  if (refused) return `RabbitMQ ${profile} refuses it: ${refused.message}`;
  // x-delayed-retry-* is a 4.3 quorum-queue feature; 4.0-4.2 ignore it
  const needs43 = design.topology.queues.some((q) =>
    Object.keys(q.arguments ?? {}).some((k) => k.startsWith('x-delayed-retry-')),
  );
  if (needs43 && profile !== '4.3') return 'x-delayed-retry-* needs RabbitMQ 4.3';
  return undefined;
}

/** What to know before running a template the profile accepts: the delayed-message exchange's limits (none: undefined). */
export function caveatOnProfile(t: RetryTemplate): string | undefined {
  if (!defaultDesign(t).topology.exchanges.some((x) => x.type === 'x-delayed-message')) return undefined;
  return 'needs the delayed-message exchange plugin: upstream archived it (January 2026), it holds every delayed message on one node (lost with that node) and does not suit hundreds of thousands of them; 4.3 cannot run it';
}

export type StrategyPick =
  | { readonly ok: true; readonly templates: readonly RetryTemplate[] }
  | { readonly ok: false; readonly option: string; readonly message: string };

/** The templates to search: the requested ones (each must exist and run on the profile), or every one that runs. */
export function strategiesOnProfile(
  profile: BrokerProfileId,
  noPlugins: boolean,
  requested?: readonly string[],
): StrategyPick {
  if (requested && requested.length > 0) {
    const unknown = requested.filter((id) => !getTemplate(id));
    if (unknown.length > 0)
      return {
        ok: false,
        option: 'strategies',
        message: `unknown strategy ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known: ${TEMPLATES.map((t) => t.id).join(', ')}`,
      };
    const picked = requested.map((id) => getTemplate(id)!);
    const runs = picked.filter((t) => !whyNotOnProfile(t, profile, noPlugins));
    if (runs.length === 0)
      return {
        ok: false,
        option: 'profile',
        message: `no requested strategy runs on profile ${profile}: ${picked.map((t) => `${t.id} ${whyNotOnProfile(t, profile, noPlugins)}`).join('; ')}`,
      };
    return { ok: true, templates: runs };
  }
  return { ok: true, templates: TEMPLATES.filter((t) => !whyNotOnProfile(t, profile, noPlugins)) };
}
