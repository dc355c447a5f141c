/**
 * `--verify-on` as one step, for the CLI and the HTTP route alike: the original and the migrated
 * topology declared object by object (verifyTopology), and the original imported as one
 * definitions file (verifyImport), each in a throwaway vhost on the target broker.
 */
import type { Design } from '@retry-studio/topology-core/model';
import {
  upgradeCheck,
  type UpgradeFinding,
  type UpgradeMigration,
  type UpgradeOptions,
  type UpgradeReport,
} from '@retry-studio/topology-core/upgrade';
import { verifyTopology, type VerifyRun, type VerifyTarget } from './verifyUpgrade.js';
import { verifyImport, type ImportOutcome } from './verifyImport.js';

export interface VerifyOnBroker {
  readonly original: VerifyRun;
  readonly migrated: VerifyRun;
  readonly originalImport: ImportOutcome;
}

export async function verifyOnBroker(
  target: VerifyTarget,
  design: Design,
  report: UpgradeReport,
  migration: UpgradeMigration,
  opts: UpgradeOptions,
  /** the migrated design's own findings (the HTTP route has them from its worker thread) */
  migratedFindings: readonly UpgradeFinding[] = upgradeCheck({ ...migration.design, profile: opts.from }, opts)
    .findings,
): Promise<VerifyOnBroker> {
  const original = await verifyTopology(target, design.topology, report.findings, 'original');
  const migrated = await verifyTopology(target, migration.design.topology, migratedFindings, 'migrated');
  const originalImport = await verifyImport(target, design.topology, report.findings);
  return { original, migrated, originalImport };
}

/** did the broker do anything the check did not predict */
export const verifyDisagrees = (v: VerifyOnBroker): boolean =>
  [...v.original.outcomes, ...v.migrated.outcomes].some((o) => !o.agrees) || !v.originalImport.agrees;
