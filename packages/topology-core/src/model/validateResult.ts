/** The result shape shared by every validator (web, server and CLI show the same errors). */
export interface ValidationIssue {
  /** field path, e.g. `queues[2].arguments.x-message-ttl` */
  readonly path: string;
  readonly message: string;
  /** stable machine-readable code, e.g. `ttl-range` */
  readonly code: string;
}

export interface ValidationResult {
  readonly ok: boolean;
  readonly errors: readonly ValidationIssue[];
  readonly warnings: readonly ValidationIssue[];
}

export class IssueSink {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];
  error(path: string, code: string, message: string): void {
    this.errors.push({ path, code, message });
  }
  warn(path: string, code: string, message: string): void {
    this.warnings.push({ path, code, message });
  }
  result(): ValidationResult {
    return { ok: this.errors.length === 0, errors: this.errors, warnings: this.warnings };
  }
}

export function isPlainObject(v: unknown): v is { readonly [k: string]: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One line per issue: `path: message`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('\n');
}
