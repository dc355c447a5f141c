import type { QueueRole } from '../lint/assumedConsumers.js';
import type { Design } from '../model/design.js';
import type { LintFinding } from '../lint/types.js';
import type { ValidationIssue } from '../model/validateResult.js';
import { BUILTIN_EXCHANGE_TYPES, PLUGIN_EXCHANGE_TYPES } from '../model/definitions.js';

export const EXCHANGE_TYPES_ALL: readonly string[] = [...BUILTIN_EXCHANGE_TYPES, ...PLUGIN_EXCHANGE_TYPES];

/** What an imported queue is for, read from its arguments and who feeds it (lint/assumedConsumers.ts). */
export type ImportRole = QueueRole;

export interface SkippedObject {
  readonly kind: 'exchange' | 'queue' | 'binding';
  readonly name: string;
  readonly reason: string;
}

export type ImportedDesign =
  | {
      readonly ok: true;
      readonly design: Design;
      /** queue name -> role ('parking': where dead letters pile up) */
      readonly roles: Readonly<Record<string, ImportRole>>;
      /** the broker is 4.3 or later (simulate with ProfileOptions.v43) */
      readonly v43: boolean;
      readonly skipped: readonly SkippedObject[];
      readonly warnings: readonly ValidationIssue[];
      readonly lint: readonly LintFinding[];
    }
  | { readonly ok: false; readonly errors: readonly ValidationIssue[]; readonly skipped: readonly SkippedObject[] };
