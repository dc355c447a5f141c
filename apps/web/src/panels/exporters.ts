/** The export formats: the design JSON and definitions JSON now, the core's code exporters as they exist. */
import { exportDefinitions, writeDesignJson, type Design } from '@retry-studio/topology-core';
import { coreFn } from '../core/bridge';

export interface ExportFormat {
  id: string;
  label: string;
  filename: (d: Design) => string;
  /** undefined when the core does not provide this exporter yet */
  render?: (d: Design) => string;
}

const slug = (d: Design) => (d.name || 'design').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'design';

/** The core's exporter for `names` (first one present), as text. */
function fromCore(names: string[]): ((d: Design) => string) | undefined {
  for (const n of names) {
    const f = coreFn<(d: Design) => unknown>(n);
    if (f)
      return (d) => {
        const out = f(d);
        if (typeof out === 'string') return out;
        const o = out as { text?: string; code?: string; content?: string };
        return o.text ?? o.code ?? o.content ?? JSON.stringify(out, null, 2);
      };
  }
  return undefined;
}

export function exportFormats(): ExportFormat[] {
  return [
    { id: 'design', label: 'Design JSON', filename: (d) => `${slug(d)}.design.json`, render: (d) => writeDesignJson(d) },
    { id: 'definitions', label: 'RabbitMQ definitions', filename: (d) => `${slug(d)}.definitions.json`, render: (d) => JSON.stringify(exportDefinitions(d.topology), null, 2) },
    { id: 'rabbitmqadmin', label: 'rabbitmqadmin', filename: (d) => `${slug(d)}.rabbitmqadmin.sh`, render: fromCore(['exportRabbitmqadmin', 'toRabbitmqadmin', 'rabbitmqadminCommands']) },
    { id: 'amqplib', label: 'amqplib script', filename: (d) => `${slug(d)}.setup.ts`, render: fromCore(['exportAmqplib', 'toAmqplibScript', 'amqplibScript', 'exportAmqplibScript']) },
    { id: 'rascal', label: 'Rascal config', filename: (d) => `${slug(d)}.rascal.json`, render: fromCore(['exportRascal', 'toRascal', 'rascalConfig']) },
  ];
}
