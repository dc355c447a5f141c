/** Test fixture builders for the export tests: template designs, and a design with what the templates lack. */
import { type Design } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';

export function templateDesign(id: string, params: { readonly [k: string]: unknown } = {}): Design {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r.errors)}`);
  return r.template.design;
}

/**
 * dlx-ttl-wait-queue plus typed arguments (booleans, a number in a headers binding), an
 * internal exchange, a policy, and names with quotes, spaces, `$` and `${`.
 */
export function typedDesign(): Design {
  const d = templateDesign('dlx-ttl-wait-queue');
  const t = d.topology;
  return {
    ...d,
    name: 'typed ${fixture}',
    topology: {
      exchanges: [
        ...t.exchanges,
        {
          name: "It's ${internal}",
          type: 'headers',
          durable: true,
          auto_delete: false,
          internal: true,
          arguments: { 'alternate-exchange': 'orders' },
        },
      ],
      queues: [
        ...t.queues,
        {
          name: 'Single $active',
          durable: true,
          auto_delete: false,
          arguments: {
            'x-single-active-consumer': true,
            'x-max-length': 10,
            'x-overflow': 'reject-publish-dlx',
            'x-queue-type': 'classic',
          },
        },
      ],
      bindings: [
        ...t.bindings,
        {
          source: "It's ${internal}",
          destination: 'Single $active',
          destination_type: 'queue',
          routing_key: '',
          arguments: { 'x-match': 'all', attempt: 3, final: true },
        },
      ],
      policies: [
        {
          name: 'cap "wait"',
          pattern: '^orders\\.wait$',
          'apply-to': 'queues',
          priority: 5,
          definition: { 'max-length': 1000, overflow: 'drop-head', 'dead-letter-routing-key': 'x' },
        },
      ],
    },
  };
}
