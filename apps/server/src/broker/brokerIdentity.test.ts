import { describe, expect, it } from 'vitest';
import { describeIdentity, identityFromOverview, identityFromServerProperties, sameBroker } from './brokerIdentity.js';
import type { Overview } from './management.js';

const overview = (o: Partial<Overview>): Overview => ({
  exchange_types: [],
  rabbitmq_version: '4.3.6',
  product_name: 'RabbitMQ',
  cluster_name: 'rabbit4@vm',
  node: 'rabbit4@localhost',
  ...o,
});

describe('broker identity', () => {
  it('reads amqplib server properties (Buffers included) and the overview', () => {
    expect(
      identityFromServerProperties({
        product: Buffer.from('RabbitMQ'),
        version: Buffer.from('4.3.6'),
        cluster_name: 'rabbit4@vm',
      }),
    ).toEqual({ product: 'RabbitMQ', version: '4.3.6', clusterName: 'rabbit4@vm' });
    expect(identityFromOverview(overview({}))).toEqual({
      product: 'RabbitMQ',
      version: '4.3.6',
      clusterName: 'rabbit4@vm',
      node: 'rabbit4@localhost',
    });
  });

  it('the same broker needs the same version and cluster name', () => {
    const amqp = identityFromServerProperties({ product: 'RabbitMQ', version: '4.3.6', cluster_name: 'rabbit4@vm' });
    expect(sameBroker(amqp, identityFromOverview(overview({})))).toBe(true);
    expect(sameBroker(amqp, identityFromOverview(overview({ rabbitmq_version: '3.10.8' })))).toBe(false);
    expect(sameBroker(amqp, identityFromOverview(overview({ cluster_name: 'rabbit@vm' })))).toBe(false);
    // a broker that does not report a cluster name over AMQP is compared by version
    expect(
      sameBroker({ product: 'RabbitMQ', version: '4.3.6' }, identityFromOverview(overview({ cluster_name: 'x' }))),
    ).toBe(true);
  });

  it('describes a broker for an error message', () => {
    expect(describeIdentity(identityFromOverview(overview({})))).toBe(
      'RabbitMQ 4.3.6 (cluster rabbit4@vm, node rabbit4@localhost)',
    );
    expect(describeIdentity({ product: 'RabbitMQ', version: '' })).toBe('RabbitMQ (unknown version)');
  });
});
