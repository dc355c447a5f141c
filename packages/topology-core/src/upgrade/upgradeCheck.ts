/**
 * The upgrade check: what changes for a retry topology when it moves from one broker line to
 * another. Declarations the target refuses or treats differently (declarationRules.ts), then
 * the fates that change under the target's semantics (behaviourDiff.ts). A design without
 * consumers (a definitions file) is simulated with the consumers lint assumes.
 */
import type { Design } from '../model/design.js';
import { checkDeclarations } from './declarationRules.js';
import { skippedBindingFindings } from './skippedBindings.js';
import { omittedFieldFindings } from './omittedFields.js';
import { behaviourDifferences, type FateWork } from './behaviourDiff.js';
import { assumedConsumers, assumedPublishers } from '../lint/assumedConsumers.js';
import { isBlocking, type UpgradeOptions, type UpgradeReport } from './types.js';

/** The design as it is simulated: with assumed consumers and publishers when it has none. */
export function withAssumedTraffic(design: Design): { design: Design; assumed: boolean } {
  if (design.consumers.length > 0) return { design, assumed: false };
  // the consumers and publishers lint and import-broker assume (lint/assumedConsumers.ts)
  const assumed = assumedConsumers(design.topology);
  const t = { consumers: assumed.consumers, publishers: assumedPublishers(design.topology, assumed) };
  return {
    design: {
      ...design,
      consumers: t.consumers,
      publishers: design.publishers.length > 0 ? design.publishers : t.publishers,
    },
    assumed: true,
  };
}

/** `work` counts the simulations run and reused (a test checks the check stays linear). */
export function upgradeCheck(design: Design, opts: UpgradeOptions, work?: FateWork): UpgradeReport {
  if (opts.from === opts.to) throw new Error(`from and to are both ${opts.from}: nothing to compare`);
  const declarations = checkDeclarations({ topology: design.topology, from: opts.from, to: opts.to });
  const { design: simulated, assumed } = withAssumedTraffic(design);
  const behaviour = behaviourDifferences(
    simulated,
    {
      from: opts.from,
      to: opts.to,
      ...(opts.failFirst !== undefined ? { failFirst: opts.failFirst } : {}),
      ...(opts.maxTimeMs !== undefined ? { maxTimeMs: opts.maxTimeMs } : {}),
    },
    work,
  );
  const findings = [
    ...declarations,
    ...skippedBindingFindings(opts.skippedBindings ?? [], opts.from, opts.to),
    ...omittedFieldFindings(opts.omittedFields ?? [], opts.from, opts.to),
    ...behaviour,
  ];
  return { from: opts.from, to: opts.to, consumersAssumed: assumed, findings, blocking: findings.some(isBlocking) };
}
