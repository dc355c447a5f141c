/** `generate` and `export` with the ecosystem formats (operator, terraform, asyncapi, rabbitmqadmin v1/v2) and their options. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../cliHarness.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'retry-cli-fmt-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCliCaptured(dir, argv);

describe('export formats in the CLI', () => {
  it('generate and export write operator, terraform and asyncapi with --cluster and --vhost', async () => {
    const op = await cli(
      'generate',
      'quorum-delivery-limit',
      '--format',
      'operator',
      '--cluster',
      'prod-rabbit',
      '--vhost',
      'jobs',
    );
    expect(op.code).toBe(0);
    expect(op.out).toContain('kind: "Queue"');
    expect(op.out).toContain('rabbitmqClusterReference:\n    name: "prod-rabbit"');
    expect(op.out).toContain('vhost: "jobs"');
    expect((await cli('generate', 'quorum-delivery-limit', '--out', 'q.json')).code).toBe(0);
    const tf = await cli('export', 'q.json', '--format', 'terraform', '--vhost', 'jobs');
    expect(tf.code).toBe(0);
    expect(tf.out).toContain('resource "rabbitmq_vhost" "vhost" {');
    expect(tf.out).toContain('arguments_json = jsonencode({');
    const aa = await cli('export', 'q.json', '--format', 'asyncapi');
    expect(aa.code).toBe(0);
    expect(JSON.parse(aa.out).asyncapi).toBe('3.0.0');
  });

  it('rabbitmqadmin is v2 syntax with "$@" before the subcommand; rabbitmqadmin-v1 keeps the 3.x syntax', async () => {
    const v2 = await cli('generate', 'dlx-ttl-wait-queue', '--format', 'rabbitmqadmin');
    expect(v2.out).toContain(
      `rabbitmqadmin "$@" declare queue --name 'orders.wait' --type 'classic' --durable 'true' --auto-delete 'false' --arguments '{"x-message-ttl":5000,"x-dead-letter-exchange":"orders.requeue"}'`,
    );
    const v1 = await cli('generate', 'dlx-ttl-wait-queue', '--format', 'rabbitmqadmin-v1');
    expect(v1.out).toContain(`rabbitmqadmin declare queue name='orders.wait' durable='true'`);
  });

  it('an invalid option value is a usage error naming the option', async () => {
    const bad = await cli('generate', 'dlx-ttl-wait-queue', '--format', 'operator', '--cluster', 'Prod_Rabbit');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--cluster: "Prod_Rabbit" is not a Kubernetes object name');
    expect(bad.out).toBe('');
    const noFile = await cli('export', 'missing.json', '--format', 'operator', '--vhost', '');
    expect(noFile.code).toBe(2);
    expect(noFile.err).toContain('--vhost: the vhost name must not be empty');
    const fmt = await cli('generate', 'dlx-ttl-wait-queue', '--format', 'k8s');
    expect(fmt.err).toContain('operator, terraform, asyncapi');
  });
});
