/**
 * RabbitMQ objects in Kubernetes YAML read as definitions (io/kubernetesManifests.ts): the operator's
 * resources with its defaults, definitions embedded in a ConfigMap, a Secret or Helm values, a
 * RabbitmqCluster named with where its definitions come from. The real files are in the server's
 * corpus (apps/server/src/cli/corpus/*.yaml); these build their shapes.
 */
import { describe, expect, it } from 'vitest';
import { T } from '../../testing/builders.js';
import { designOf } from '../../testing/upgradeFixtures.js';
import { isAppConfigFile } from '../model/appFileKind.js';
import { definitionsFromManifests } from './kubernetesManifests.js';
import { exportOperatorYaml, exportOperatorYamlVhosts } from './operator.js';
import { readDocumentText } from './readDocumentFile.js';

const read = (text: string) => {
  const r = definitionsFromManifests(text);
  if (!r?.ok) throw new Error(JSON.stringify(r));
  return r.reading;
};

const retry = designOf(
  'orders',
  T.topology(
    T.exchange('work', 'topic'),
    T.exchange('retry'),
    T.queue('work.q', { dlx: 'retry', dlrk: 'wait' }),
    T.queue('wait.q', { ttl: 5000, dlx: 'work' }),
    T.queue('qq', { quorum: true }),
    T.bind('work', 'work.q', 'order.#'),
    T.bind('retry', 'wait.q', 'wait'),
    T.policy('limit', '^qq$', { 'delivery-limit': 5 }, 3),
  ),
);

describe('messaging-topology-operator resources', () => {
  it('what export --format operator writes reads back as the same topology', async () => {
    const r = await readDocumentText(exportOperatorYaml(retry), { fileName: 'orders.yaml' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.docs).toHaveLength(1);
    const t = r.docs[0]!.design.topology;
    // the export writes `type: classic` on a classic queue, which the operator declares as x-queue-type classic
    expect(t.queues).toEqual(
      retry.topology.queues.map((q) => ({
        ...q,
        arguments: { ...q.arguments, 'x-queue-type': q.arguments?.['x-queue-type'] ?? 'classic' },
      })),
    );
    expect(t.exchanges.map((x) => [x.name, x.type, x.durable])).toEqual([
      ['work', 'topic', true],
      ['retry', 'direct', true],
    ]);
    expect(t.bindings.map((b) => [b.source, b.destination, b.routing_key])).toEqual([
      ['work', 'work.q', 'order.#'],
      ['retry', 'wait.q', 'wait'],
    ]);
    expect(t.policies).toEqual(retry.topology.policies);
    expect(r.docs[0]!.warnings.find((w) => w.code === 'read-from')?.message).toBe(
      'read 2 Exchanges, 3 Queues, 2 Bindings, 1 Policy (messaging-topology-operator resources)',
    );
  });

  it('several vhosts in one stream: one design per vhost (spec.vhost)', async () => {
    const text = exportOperatorYamlVhosts([
      { vhost: 'a', design: retry },
      { vhost: 'b', design: designOf('b', T.topology(T.queue('only.b'))) },
    ]);
    const r = await readDocumentText(text, { fileName: 'two.yaml' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.docs.map((d) => [d.vhost, d.design.topology.queues.length])).toEqual([
      ['a', 3],
      ['b', 1],
    ]);
  });

  it("the operator's defaults: no durable is transient, no type is direct, no vhost is /", () => {
    const { value } = read(
      [
        'apiVersion: rabbitmq.com/v1beta1',
        'kind: Queue',
        'metadata: { name: q }',
        'spec: { name: q, rabbitmqClusterReference: { name: c } }',
        '---',
        'apiVersion: rabbitmq.com/v1beta1',
        'kind: Exchange',
        'metadata: { name: x }',
        'spec: { name: x, rabbitmqClusterReference: { name: c } }',
      ].join('\n'),
    );
    expect(value.queues).toEqual([{ name: 'q', vhost: '/', durable: false, auto_delete: false, arguments: {} }]);
    expect(value.exchanges).toEqual([
      { name: 'x', vhost: '/', type: 'direct', durable: false, auto_delete: false, internal: false, arguments: {} },
    ]);
  });

  it('a SuperStream is the exchange, streams and bindings the operator declares for it', () => {
    const { value } = read(
      'apiVersion: rabbitmq.com/v1alpha1\nkind: SuperStream\nmetadata:\n  name: orders\nspec:\n  name: orders\n  partitions: 2\n',
    );
    expect(value.exchanges).toMatchObject([{ name: 'orders', type: 'direct', durable: true }]);
    expect(value.queues).toMatchObject([
      { name: 'orders-0', arguments: { 'x-queue-type': 'stream' } },
      { name: 'orders-1', arguments: { 'x-queue-type': 'stream' } },
    ]);
    expect(value.bindings).toMatchObject([
      { source: 'orders', destination: 'orders-0', routing_key: '0', arguments: { 'x-stream-partition-order': 0 } },
      { source: 'orders', destination: 'orders-1', routing_key: '1', arguments: { 'x-stream-partition-order': 1 } },
    ]);
  });

  it('users, permissions and shovels become what the definitions import names as not imported', async () => {
    const r = await readDocumentText(
      [
        exportOperatorYaml(designOf('one', T.topology(T.queue('q')))),
        '---\napiVersion: rabbitmq.com/v1beta1\nkind: User\nmetadata: { name: app }\nspec: { tags: [management], rabbitmqClusterReference: { name: c } }',
        '---\napiVersion: rabbitmq.com/v1beta1\nkind: Shovel\nmetadata: { name: move }\nspec: { name: move, vhost: /, rabbitmqClusterReference: { name: c } }',
      ].join('\n'),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.docs[0]!.warnings.find((w) => w.code === 'not-imported')?.message).toMatch(
      /not imported: 1 shovel \("move"\), 1 user \("app"\)/,
    );
  });
});

describe('definitions embedded in Kubernetes and Helm files', () => {
  const definitions = JSON.stringify({ queues: [{ name: 'q', vhost: '/', durable: true, auto_delete: false }] });
  const block = (indent: string) => `|\n${indent}${definitions}`;

  it('a ConfigMap holding definitions.json', () => {
    const r = read(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: definitions\ndata:\n  definitions.json: ${block('    ')}\n`,
    );
    expect(r.value.queues).toMatchObject([{ name: 'q' }]);
    expect(r.notes.map((n) => n.message)).toEqual([
      'read the definitions JSON in ConfigMap "definitions" data.definitions.json (line 6)',
    ]);
  });

  it("a Secret's stringData beside a RabbitmqCluster, and a Helm values file's extraSecrets", () => {
    const secret = read(
      `apiVersion: v1\nkind: Secret\nmetadata: { name: load }\nstringData:\n  load_definition.json: ${block('    ')}\n`,
    );
    expect(secret.value.queues).toHaveLength(1);
    const values = read(
      `rabbitmq:\n  extraSecrets:\n    load-definition:\n      load_definition.json: ${block('        ')}\n`,
    );
    expect(values.notes[0]!.message).toBe(
      'read the definitions JSON in rabbitmq.extraSecrets.load-definition.load_definition.json (line 4)',
    );
  });

  it('a RabbitmqCluster alone is named with where its definitions are loaded from', () => {
    const r = definitionsFromManifests(
      [
        'apiVersion: rabbitmq.com/v1beta1',
        'kind: RabbitmqCluster',
        'metadata: { name: rmq }',
        'spec:',
        '  override: { statefulSet: { spec: { template: { spec: { volumes: [ { name: d, configMap: { name: defs } } ] } } } } }',
        '  rabbitmq:',
        '    additionalConfig: |',
        '      load_definitions = /etc/rabbitmq/definitions.json',
      ].join('\n'),
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'definitions-empty' } });
    expect(!r?.ok && r?.error.message).toContain(
      'its definitions are loaded from /etc/rabbitmq/definitions.json (load_definitions in additionalConfig), mounted from ConfigMap "defs"',
    );
  });

  it('a Helm template (a {{ if }} outside the strings) is not YAML: render it first', () => {
    const r = definitionsFromManifests(
      `{{- if .Values.rabbitmq.enabled }}\nkind: Secret\nstringData:\n  d.json: ${block('    ')}\n{{- end }}\n`,
    );
    expect(r).toBeUndefined();
    const t = definitionsFromManifests(
      `kind: Secret\nstringData:\n  d.json: ${block('    ')}\n  {{- if .Values.x }}\n`,
    );
    expect(t).toMatchObject({ ok: false, error: { code: 'yaml-syntax' } });
    expect(!t?.ok && t?.error.message).toContain('a Helm template; render it first');
  });
});

describe('which YAML files are read as RabbitMQ objects', () => {
  it("an application's Spring config is not; a manifest holding RabbitMQ objects is", () => {
    const spring = 'spring:\n  rabbitmq:\n    listener:\n      simple:\n        retry:\n          enabled: true\n';
    expect(definitionsFromManifests(spring)).toBeUndefined();
    expect(isAppConfigFile('application.yml', spring)).toBe(true);
    expect(isAppConfigFile('queues.yaml', exportOperatorYaml(retry))).toBe(false);
  });
});
