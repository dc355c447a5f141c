import { describe, expect, it } from 'vitest';
import type { Design } from '../model/design.js';
import { templateDesign as design } from '../../testing/templateDesign.js';
import { exportOperatorYaml } from './operator.js';
import { exportDesign } from './exporters.js';
import { ExportOptionsError } from './exportOptions.js';

describe('operator YAML', () => {
  it('writes DNS-1123 metadata names, unique per kind, with the RabbitMQ name in spec.name', () => {
    const d = design('dlx-ttl-wait-queue');
    const clash: Design = {
      ...d,
      topology: {
        ...d.topology,
        queues: [
          ...d.topology.queues,
          { name: 'Orders_Q', durable: true, auto_delete: false, arguments: {} },
          { name: 'orders-q', arguments: { 'x-queue-type': 'quorum' } },
        ],
      },
    };
    const y = exportOperatorYaml(clash);
    expect(y).toContain('metadata:\n  name: "queue-orders-q"\nspec:\n  name: "orders.q"');
    expect(y).toContain('metadata:\n  name: "queue-orders-q-2"\nspec:\n  name: "Orders_Q"');
    expect(y).toContain(
      'metadata:\n  name: "queue-orders-q-3"\nspec:\n  name: "orders-q"\n  type: "quorum"\n  durable: true',
    );
    expect(y).toContain('rabbitmqClusterReference:\n    name: "rabbitmq"');
  });

  it('keeps typed arguments typed and strings quoted', () => {
    const y = exportOperatorYaml(design('quorum-delivery-limit'), { cluster: 'c', vhost: 'yes' });
    expect(y).toContain('  arguments:\n    x-delivery-limit: 3\n    x-dead-letter-exchange: "jobs.dlx"');
    expect(y).toContain('vhost: "yes"');
    expect(y).not.toContain('x-queue-type');
  });

  it('long names are cut to 63 characters', () => {
    const d = design('requeue-once');
    const long = 'q'.repeat(300);
    const y = exportOperatorYaml({ ...d, topology: { ...d.topology, queues: [{ name: long, arguments: {} }] } });
    expect(y).toContain(`name: "queue-${'q'.repeat(57)}"`);
  });

  it('refuses a cluster name that is not a Kubernetes name, naming the option', () => {
    expect(() => exportDesign(design('requeue-once'), 'operator', { cluster: 'My Cluster' })).toThrow(
      ExportOptionsError,
    );
    try {
      exportDesign(design('requeue-once'), 'operator', { cluster: '-x' });
    } catch (e) {
      expect((e as ExportOptionsError).issues).toMatchObject([{ path: 'cluster', code: 'cluster-name' }]);
    }
  });
});
