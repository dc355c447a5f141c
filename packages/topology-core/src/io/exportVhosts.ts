/**
 * Several vhosts' designs in one export, every object in its own vhost: a whole-broker
 * definitions file, one Terraform file (resources labelled per vhost), one operator YAML stream
 * (spec.vhost on each resource), one rabbitmqadmin v1 script (-V on each command). The other
 * formats describe one vhost: undefined for them (the caller says to pick one).
 */
import type { Design } from '../model/design.js';
import { exportDefinitionsVhosts } from './definitions.js';
import type { ExportFormat } from './exporters.js';
import { exportOperatorYamlVhosts } from './operator.js';
import { exportRabbitmqadminV1 } from './rabbitmqadminV1.js';
import { exportTerraformVhosts } from './terraform.js';

export interface VhostDesign {
  readonly vhost: string;
  readonly design: Design;
}

export const MULTI_VHOST_FORMATS: readonly ExportFormat[] = [
  'definitions',
  'terraform',
  'operator',
  'rabbitmqadmin-v1',
];

export function exportVhosts(
  parts: readonly VhostDesign[],
  format: ExportFormat,
  opts: { readonly cluster?: string } = {},
): string | undefined {
  switch (format) {
    case 'definitions':
      return (
        JSON.stringify(
          exportDefinitionsVhosts(parts.map((p) => ({ vhost: p.vhost, topology: p.design.topology }))),
          null,
          2,
        ) + '\n'
      );
    case 'terraform':
      return exportTerraformVhosts(parts);
    case 'operator':
      return exportOperatorYamlVhosts(parts, opts);
    case 'rabbitmqadmin-v1':
      return parts
        .map((p, i) => (i === 0 ? '' : '\n') + exportRabbitmqadminV1(p.design.topology, { vhost: p.vhost }))
        .join('');
    default:
      return undefined;
  }
}
