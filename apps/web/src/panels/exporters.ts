/** The export formats, all rendered by the core's `exportDesign` (the CLI and server use the same). */
import {
  EXPORT_FORMATS,
  exportDesign,
  type ExportFormat as CoreFormat,
  type ExportOptions,
} from '@retry-studio/topology-core/io';
import { type Design } from '@retry-studio/topology-core/model';

/** The options a format reads (the panel shows an input for each). */
export type ExportOptionName = keyof ExportOptions;

export interface ExportFormat {
  id: CoreFormat;
  label: string;
  filename: (d: Design) => string;
  options: readonly ExportOptionName[];
  render: (d: Design, opts?: ExportOptions) => string;
}

const slug = (d: Design) =>
  (d.name || 'design')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'design';

const FORMAT: Record<CoreFormat, { label: string; file: string; options: readonly ExportOptionName[] }> = {
  design: { label: 'Design JSON', file: 'design.json', options: [] },
  definitions: { label: 'RabbitMQ definitions', file: 'definitions.json', options: ['vhost'] },
  rabbitmqadmin: { label: 'rabbitmqadmin (v2, 4.x)', file: 'rabbitmqadmin.sh', options: ['vhost'] },
  'rabbitmqadmin-v1': { label: 'rabbitmqadmin v1 (3.x)', file: 'rabbitmqadmin-v1.sh', options: ['vhost'] },
  amqplib: { label: 'amqplib script', file: 'setup.ts', options: [] },
  rascal: { label: 'Rascal config', file: 'rascal.json', options: ['vhost'] },
  consumers: { label: 'Consumer skeleton', file: 'consumers.ts', options: [] },
  operator: { label: 'Kubernetes operator', file: 'topology.yaml', options: ['cluster', 'vhost'] },
  terraform: { label: 'Terraform', file: 'rabbitmq.tf', options: ['vhost'] },
  asyncapi: { label: 'AsyncAPI 3.0', file: 'asyncapi.json', options: ['vhost'] },
};

export function exportFormats(): ExportFormat[] {
  return EXPORT_FORMATS.map((id) => ({
    id,
    label: FORMAT[id].label,
    filename: (d: Design) => `${slug(d)}.${FORMAT[id].file}`,
    options: FORMAT[id].options,
    render: (d: Design, opts: ExportOptions = {}) => exportDesign(d, id, opts),
  }));
}
