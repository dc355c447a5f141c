/** One entry point for every export format (the CLI, the server and the web export panel use it). */
import type { Design } from '../model/design.js';
import { exportDefinitions } from './definitions.js';
import { writeDesignJson } from './designJson.js';
import { exportRabbitmqadmin } from './rabbitmqadmin.js';
import { exportRabbitmqadminV1 } from './rabbitmqadminV1.js';
import { exportAmqplibScript } from './amqplibScript.js';
import { exportRascalConfig } from './rascal.js';
import { exportConsumerSkeleton } from './consumerSkeleton.js';
import { exportOperatorYaml } from './operator.js';
import { exportTerraform } from './terraform.js';
import { exportAsyncApiJson } from './asyncapi.js';
import { ExportOptionsError, validateExportOptions, type ExportOptions } from './exportOptions.js';

export const EXPORT_FORMATS = [
  'design',
  'definitions',
  'rabbitmqadmin',
  'rabbitmqadmin-v1',
  'amqplib',
  'rascal',
  'consumers',
  'operator',
  'terraform',
  'asyncapi',
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

/** Throws ExportOptionsError (each issue naming its option) for an invalid option. */
export function exportDesign(d: Design, format: ExportFormat, opts: ExportOptions = {}): string {
  const issues = validateExportOptions(opts);
  if (issues.length > 0) throw new ExportOptionsError(issues);
  // the design's own vhost unless told another ("/" is every tool's default: left implicit)
  const vh = opts.vhost ?? (d.vhost !== '/' ? d.vhost : undefined);
  opts = vh !== undefined ? { ...opts, vhost: vh } : opts;
  const vhost = vh !== undefined ? { vhost: vh } : {};
  switch (format) {
    case 'design':
      return writeDesignJson(d);
    case 'definitions':
      // a design read from a vhost ("/" included) is written whole-broker, its vhost on every object: a file
      // without vhost fields is a per-vhost export, which `rabbitmqctl import_definitions` cannot place
      return (
        JSON.stringify(
          exportDefinitions(d.topology, vh !== undefined ? vhost : d.vhost !== undefined ? { vhost: d.vhost } : {}),
          null,
          2,
        ) + '\n'
      );
    case 'rabbitmqadmin':
      return exportRabbitmqadmin(d.topology, { ...vhost, designName: d.name });
    case 'rabbitmqadmin-v1':
      return exportRabbitmqadminV1(d.topology, vhost);
    case 'amqplib':
      return exportAmqplibScript(d.topology, d.name);
    case 'rascal':
      return JSON.stringify(exportRascalConfig(d, opts.vhost ?? '/'), null, 2) + '\n';
    case 'consumers':
      return exportConsumerSkeleton(d);
    case 'operator':
      return exportOperatorYaml(d, { ...vhost, ...(opts.cluster !== undefined ? { cluster: opts.cluster } : {}) });
    case 'terraform':
      return exportTerraform(d, vhost);
    case 'asyncapi':
      return exportAsyncApiJson(d, vhost);
  }
}
