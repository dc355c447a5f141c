// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readDocument } from './readDocument';

describe("the browser's import reads what the CLI reads (the core's readDocumentText)", () => {
  it('messaging-topology-operator resources open as a design, and say where they were read from', async () => {
    const yaml = [
      'apiVersion: rabbitmq.com/v1beta1',
      'kind: Queue',
      'metadata: { name: source-queue }',
      'spec: { name: source-queue, durable: true, rabbitmqClusterReference: { name: rabbitmq } }',
      '---',
      'apiVersion: rabbitmq.com/v1beta1',
      'kind: Exchange',
      'metadata: { name: source-exchange }',
      'spec: { name: source-exchange, type: fanout, durable: true, rabbitmqClusterReference: { name: rabbitmq } }',
      '---',
      'apiVersion: rabbitmq.com/v1beta1',
      'kind: Binding',
      'metadata: { name: binding }',
      'spec: { source: source-exchange, destination: source-queue, destinationType: queue, rabbitmqClusterReference: { name: rabbitmq } }',
    ].join('\n');
    const r = await readDocument(yaml, 'predeclared.yaml');
    if (!('file' in r)) throw new Error(r.errors.join('; '));
    const [doc] = r.file.docs;
    expect(doc!.design.name).toBe('predeclared');
    expect(doc!.design.topology.bindings).toMatchObject([{ source: 'source-exchange', destination: 'source-queue' }]);
    expect(doc!.warnings.map((w) => w.message)).toContain(
      'read 1 Queue, 1 Exchange, 1 Binding (messaging-topology-operator resources)',
    );
  });

  it('a RabbitmqCluster alone is an error that says where its definitions are', async () => {
    const r = await readDocument(
      'apiVersion: rabbitmq.com/v1beta1\nkind: RabbitmqCluster\nmetadata: { name: rmq }\nspec: { replicas: 1 }\n',
      'cluster.yaml',
    );
    expect('file' in r).toBe(false);
    expect(r.errors[0]).toMatch(
      /^the manifests declare no queue, exchange, binding or policy.*RabbitmqCluster "rmq" is the cluster itself$/,
    );
  });
});
