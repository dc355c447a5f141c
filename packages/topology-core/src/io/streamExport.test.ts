/** A stream parking place in every exporter: declared durable with its type, never as a classic queue. */
import { describe, expect, it } from 'vitest';
import { buildTemplate } from '../templates/registry.js';
import { exportDesign } from './exporters.js';
import type { Design } from '../model/design.js';

function streamParked(): Design {
  const r = buildTemplate('dlx-ttl-wait-queue', { parking: 'stream', prefix: 'orders' });
  if (!r.ok) throw new Error('build');
  const d = r.template.design;
  // retention arguments ride along
  return {
    ...d,
    topology: {
      ...d.topology,
      queues: d.topology.queues.map((q) =>
        q.name === 'orders.parking' ? { ...q, arguments: { ...q.arguments, 'x-max-age': '7D' } } : q,
      ),
    },
  };
}

describe('a stream in the exporters', () => {
  const d = streamParked();
  it('definitions and the amqplib script carry x-queue-type stream, durable', () => {
    const defs = JSON.parse(exportDesign(d, 'definitions')) as {
      queues: { name: string; durable: boolean; arguments: Record<string, unknown> }[];
    };
    expect(defs.queues.find((q) => q.name === 'orders.parking')).toMatchObject({
      durable: true,
      arguments: { 'x-queue-type': 'stream', 'x-max-age': '7D' },
    });
    expect(exportDesign(d, 'amqplib')).toContain(
      'assertQueue("orders.parking", { durable: true, autoDelete: false, arguments: {"x-queue-type":"stream","x-max-age":"7D"} })',
    );
  });
  it('rabbitmqadmin v2 and the operator name the type; v1 passes it as an argument', () => {
    expect(exportDesign(d, 'rabbitmqadmin')).toContain(
      `declare queue --name 'orders.parking' --type 'stream' --durable 'true'`,
    );
    expect(exportDesign(d, 'rabbitmqadmin-v1')).toContain(
      `declare queue name='orders.parking' durable='true' auto_delete='false' arguments='{"x-queue-type":"stream","x-max-age":"7D"}'`,
    );
    expect(exportDesign(d, 'operator')).toContain('  name: "orders.parking"\n  type: "stream"\n  durable: true');
  });
  it('terraform keeps the type in the arguments', () => {
    const tf = exportDesign(d, 'terraform');
    const block = tf.slice(tf.indexOf('resource "rabbitmq_queue" "orders_parking"'));
    expect(block.slice(0, block.indexOf('\n}'))).toMatch(
      /"x-queue-type" = "stream"[\s\S]*"x-max-age" = "7D"|"x-max-age" = "7D"[\s\S]*"x-queue-type" = "stream"/,
    );
  });
  it('a generated consumer of a stream starts at its offset', () => {
    const reader = {
      id: 'reader',
      queue: 'orders.parking',
      prefetch: 10,
      streamOffset: 'first' as const,
      behaviour: { kind: 'script' as const, actions: [{ kind: 'ack' as const }] },
    };
    const code = exportDesign({ ...d, consumers: [...d.consumers, reader] }, 'consumers');
    expect(code).toContain(`}, { arguments: { 'x-stream-offset': "first" } });`);
  });
});
