/**
 * The migration: the design rewritten for the target broker (migrateTopology.ts, then
 * migrateConsumers.ts), and the proof: the original simulated under the source profile next to
 * the migration under the target, per publisher and failure model, the fates compared. A design
 * without consumers is compared with the consumers lint assumes (lint/assumedConsumers.ts).
 */
import type { BrokerProfileId, Design } from '../model/design.js';
import type { BudgetFailure } from '../budget/budget.js';
import { migrateTopology, type MigrationLog } from './migrateTopology.js';
import { migrateConsumers } from './migrateConsumers.js';
import { failureModels, fateRunner, sameFate, type FateWork } from './behaviourDiff.js';
import { withAssumedTraffic } from './upgradeCheck.js';
import { designParts } from '../sim/designParts.js';
import type { FateSummary } from './types.js';

export interface FateCheck {
  readonly publisher: string;
  readonly failure: BudgetFailure;
  readonly before: FateSummary;
  readonly after: FateSummary;
  readonly match: boolean;
}

export interface UpgradeMigration {
  readonly design: Design;
  /** what was rewritten, one line each */
  readonly changes: readonly string[];
  /** what the target does not allow to keep, one line each */
  readonly notKept: readonly string[];
  readonly fates: readonly FateCheck[];
  /** every fate matches */
  readonly fatesMatch: boolean;
}

export interface UpgradeMigrateOptions {
  readonly from: BrokerProfileId;
  readonly to: BrokerProfileId;
  readonly failFirst?: number;
}

export function migrateDesignForUpgrade(
  design: Design,
  opts: UpgradeMigrateOptions,
  work?: FateWork,
): UpgradeMigration {
  if (opts.from === opts.to) throw new Error(`from and to are both ${opts.from}: nothing to migrate`);
  const log: MigrationLog = { changes: [], notKept: [] };
  const topology = migrateTopology(design.topology, opts.from, opts.to, log);
  const moved = migrateConsumers(design.consumers, topology, opts.from, opts.to, log);
  const migrated: Design = { ...design, profile: opts.to, topology: moved.topology, consumers: moved.consumers };
  const a = withAssumedTraffic({ ...design, profile: opts.from }).design;
  const b = withAssumedTraffic(migrated).design;
  const fates: FateCheck[] = [];
  // each publisher on its part of either design (sim/designParts.ts): linear in the design, not quadratic
  const partOfA = designParts(a);
  const partOfB = designParts(b);
  const atB = new Map(b.publishers.map((x, i) => [x.id, i]));
  const runner = fateRunner({}, work);
  // a fate read back under the part's names (the whole path is not read: a fate carries its own)
  const fateIn = (r: { run: { fate: FateSummary }; back: <T>(v: T) => T }): FateSummary => r.back(r.run.fate);
  for (const [i, p] of a.publishers.entries()) {
    const j = atB.get(p.id);
    if (j === undefined) continue;
    const fateBefore = runner(partOfA(i));
    const fateAfter = runner(partOfB(j));
    for (const failure of failureModels(opts.failFirst ?? 3)) {
      const before = fateIn(fateBefore(opts.from, failure));
      const after = fateIn(fateAfter(opts.to, failure));
      fates.push({ publisher: p.id, failure, before, after, match: sameFate(before, after) });
    }
  }
  return {
    design: migrated,
    changes: log.changes,
    notKept: log.notKept,
    fates,
    fatesMatch: fates.every((f) => f.match),
  };
}
