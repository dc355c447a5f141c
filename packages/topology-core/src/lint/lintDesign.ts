/** Run every lint rule over a design (or a bare topology from a definitions file). */
import type { Design } from '../model/design.js';
import type { Topology } from '../model/definitions.js';
import { designFromTopology } from '../io/definitions.js';
import { buildFlow } from './flow.js';
import { profileFor } from '../sim/profiles.js';
import { RULES } from './rules.js';
import { withAppSources } from './appSources.js';
import type { LintFinding, LintOptions } from './types.js';

const ORDER = { error: 0, warning: 1, info: 2 } as const;

export function lintDesign(design: Design, opts: LintOptions = {}): LintFinding[] {
  // the same design linted again (the web's lint view, then the budget's risks): the findings of the last run.
  // A design is never changed in place (every edit makes a new one), so its identity is its content.
  if (opts.previous || opts.omittedFields || opts.pluginPolicyKeys) return lintNow(design, opts);
  const key = `${opts.profile ?? ''}|${opts.nodes ?? ''}|${opts.plugins?.join(',') ?? '?'}`;
  const hit = lastRuns.get(design);
  if (hit?.key === key) return [...hit.findings];
  const findings = lintNow(design, opts);
  lastRuns.set(design, { key, findings });
  return [...findings];
}

const lastRuns = new WeakMap<Design, { key: string; findings: readonly LintFinding[] }>();

function lintNow(design: Design, opts: LintOptions): LintFinding[] {
  const profile = opts.profile ?? design.profile ?? '3.10';
  const semantics = profileFor(profile);
  const flow = buildFlow(design.topology, design.consumers, design.publishers, semantics);
  const ctx = {
    design,
    profile,
    semantics,
    consumersKnown: design.consumers.length > 0,
    ...(opts.previous ? { previous: opts.previous } : {}),
    ...(opts.nodes !== undefined ? { nodes: opts.nodes } : {}),
    omittedFields: opts.omittedFields ?? [],
    pluginPolicyKeys: opts.pluginPolicyKeys ?? [],
    ...(opts.plugins ? { plugins: opts.plugins } : {}),
  };
  const out: LintFinding[] = [];
  for (const r of RULES) out.push(...r.check(ctx, flow));
  return withAppSources(design, out).sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

/** A definitions file: no consumers or publishers, lint what the topology shows. */
export function lintTopology(topology: Topology, opts: LintOptions = {}): LintFinding[] {
  return lintDesign(designFromTopology(topology), opts);
}
