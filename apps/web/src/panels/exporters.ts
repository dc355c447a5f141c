/** The export formats, all rendered by the core's `exportDesign` (the CLI and server use the same). */
import { EXPORT_FORMATS, exportDesign, type Design, type ExportFormat as CoreFormat } from '@retry-studio/topology-core';

export interface ExportFormat {
  id: CoreFormat;
  label: string;
  filename: (d: Design) => string;
  render: (d: Design) => string;
}

const slug = (d: Design) => (d.name || 'design').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'design';

const LABEL: Record<CoreFormat, [string, string]> = {
  design: ['Design JSON', 'design.json'],
  definitions: ['RabbitMQ definitions', 'definitions.json'],
  rabbitmqadmin: ['rabbitmqadmin', 'rabbitmqadmin.sh'],
  amqplib: ['amqplib script', 'setup.ts'],
  rascal: ['Rascal config', 'rascal.json'],
  consumers: ['Consumer skeleton', 'consumers.ts'],
};

export function exportFormats(): ExportFormat[] {
  return EXPORT_FORMATS.map((id) => ({
    id,
    label: LABEL[id][0],
    filename: (d: Design) => `${slug(d)}.${LABEL[id][1]}`,
    render: (d: Design) => exportDesign(d, id),
  }));
}
