/** The upgrade floor: what changes between broker lines for a retry topology, and a migration that keeps the old fates. */
export { upgradeCheck, withAssumedTraffic } from './upgradeCheck.js';
export {
  migrateDesignForUpgrade,
  type FateCheck,
  type UpgradeMigration,
  type UpgradeMigrateOptions,
} from './migrateDesignForUpgrade.js';
export { DECLARATION_RULES, checkDeclarations, type DeclarationRule } from './declarationRules.js';
export { behaviourDifferences, fateText, failureText } from './behaviourDiff.js';
export { isBlocking } from './types.js';
export type {
  UpgradeFinding,
  UpgradeFindingKind,
  DeclarationFinding,
  BehaviourFinding,
  FateSummary,
  UpgradeSource,
  UpgradeOptions,
  UpgradeReport,
} from './types.js';
