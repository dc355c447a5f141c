/** One entry point for every export format (the CLI and the server use it). */
import type { Design } from '../model/design.js';
import { exportDefinitions } from './definitions.js';
import { writeDesignJson } from './designJson.js';
import { exportRabbitmqadmin } from './rabbitmqadmin.js';
import { exportAmqplibScript } from './amqplibScript.js';
import { exportRascalConfig } from './rascal.js';
import { exportConsumerSkeleton } from './consumerSkeleton.js';

export const EXPORT_FORMATS = ['design', 'definitions', 'rabbitmqadmin', 'amqplib', 'rascal', 'consumers'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

export interface ExportOptions {
  /** definitions / rabbitmqadmin / rascal: the vhost to write */
  readonly vhost?: string;
}

export function exportDesign(d: Design, format: ExportFormat, opts: ExportOptions = {}): string {
  switch (format) {
    case 'design':
      return writeDesignJson(d);
    case 'definitions':
      return JSON.stringify(exportDefinitions(d.topology, opts.vhost !== undefined ? { vhost: opts.vhost } : {}), null, 2) + '\n';
    case 'rabbitmqadmin':
      return exportRabbitmqadmin(d.topology, opts.vhost !== undefined ? { vhost: opts.vhost } : {});
    case 'amqplib':
      return exportAmqplibScript(d.topology, d.name);
    case 'rascal':
      return JSON.stringify(exportRascalConfig(d, opts.vhost ?? '/'), null, 2) + '\n';
    case 'consumers':
      return exportConsumerSkeleton(d);
  }
}
