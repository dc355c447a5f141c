/** Response of /api/upgrade/verify: what the target broker did with each declaration, next to the check's prediction. */

export interface DeclarationOutcomeView {
  /** `exchange X`, `queue Q`, `policy P`, `binding S -> D` */
  readonly object: string;
  readonly accepted: boolean;
  /** the broker's own words when it refused */
  readonly brokerSaid?: string;
  readonly predicted?: 'refused';
  readonly agrees: boolean;
}

export interface VerifyRunView {
  /** the throwaway vhost it was declared in */
  readonly vhost: string;
  readonly outcomes: readonly DeclarationOutcomeView[];
  readonly cleanedUp: boolean;
  readonly deprecatedUsed?: readonly string[];
}

export interface ImportOutcomeView {
  readonly vhost: string;
  readonly accepted: boolean;
  readonly brokerSaid?: string;
  readonly predictedRefused: boolean;
  readonly agrees: boolean;
  readonly created: { readonly exchanges: readonly string[]; readonly queues: readonly string[] };
  readonly cleanedUp: boolean;
}

export interface UpgradeVerifyResponse {
  /** the broker verified on (password redacted) and its version */
  readonly broker: string;
  readonly brokerVersion: string;
  readonly original: VerifyRunView;
  readonly migrated: VerifyRunView;
  readonly originalImport: ImportOutcomeView;
  /** every outcome as predicted */
  readonly agrees: boolean;
}
