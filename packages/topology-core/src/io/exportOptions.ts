/** The options of the exporters, checked in one place (the CLI and the export panel show the same errors). */
import type { ValidationIssue } from '../model/validateResult.js';

export interface ExportOptions {
  /** the vhost to write (definitions, rabbitmqadmin, rascal, operator, terraform, asyncapi) */
  readonly vhost?: string;
  /** operator: the RabbitmqCluster the resources belong to (`rabbitmqClusterReference.name`) */
  readonly cluster?: string;
}

/** The cluster name used when no `cluster` option is given. */
export const DEFAULT_OPERATOR_CLUSTER = 'rabbitmq';

/** A Kubernetes object name (DNS-1123 subdomain), as a RabbitmqCluster's metadata.name must be. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const DNS1123_MAX = 253;

export function validateExportOptions(opts: ExportOptions): readonly ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (opts.cluster !== undefined && (opts.cluster.length > DNS1123_MAX || !DNS1123_SUBDOMAIN.test(opts.cluster)))
    issues.push({
      path: 'cluster',
      code: 'cluster-name',
      message: `${JSON.stringify(opts.cluster)} is not a Kubernetes object name: use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most ${DNS1123_MAX} characters`,
    });
  if (opts.vhost !== undefined && (opts.vhost === '' || /[\r\n]/.test(opts.vhost)))
    issues.push({
      path: 'vhost',
      code: 'vhost-name',
      message: opts.vhost === '' ? 'the vhost name must not be empty' : 'the vhost name must not contain a line break',
    });
  return issues;
}

/** Thrown by exportDesign for options that validateExportOptions rejects. */
export class ExportOptionsError extends Error {
  constructor(readonly issues: readonly ValidationIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    this.name = 'ExportOptionsError';
  }
}
