/**
 * prove-app's questions that are wrong, on the real broker: a file of no known framework, a
 * configuration the framework refuses to start with (its own words shown), an unreachable broker:
 * exit 2, and no vhost left behind. And --json's shape from a real Spring Boot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { springBootYml } from '@retry-studio/topology-core/testing/appconfig';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { runCliCaptured } from '../cli/cliHarness.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { closeRunners } from './closeRunners.js';
import { runnerFor } from './frameworkRunners.js';
import { TEST_VHOST_PREFIX } from './testing/proofCases.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rs-prove-'));
});
afterAll(async () => {
  await closeRunners();
  await rm(dir, { recursive: true, force: true });
});

const mgmt = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });
const ours = async () => (await mgmt.listVhosts()).map((v) => v.name).filter((n) => n.startsWith(TEST_VHOST_PREFIX));
const prove = async (file: string, text: string, ...args: string[]) => {
  await writeFile(path.join(dir, file), text);
  return runCliCaptured(dir, [
    'prove-app',
    file,
    '--url',
    BROKER_310.amqpUrl,
    '--vhost-prefix',
    TEST_VHOST_PREFIX,
    ...args,
  ]);
};
const boot = runnerFor('spring-boot', '3.5');

describe('prove-app: a wrong question exits 2 and leaves nothing on the broker', () => {
  it('a file of no known framework', async () => {
    const r = await prove('settings.py', 'DEBUG = True\n');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/settings\.py: no RabbitMQ listener or binding found/);
    expect(await ours()).toEqual([]);
  });

  it('an unreachable broker', async () => {
    await writeFile(path.join(dir, 'application.yml'), springBootYml({ enabled: true, maxAttempts: 2 }));
    const r = await runCliCaptured(dir, ['prove-app', 'application.yml', '--url', 'amqp://guest:guest@127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not reachable|refused/);
  });

  it.skipIf(boot.absent() !== undefined)(
    "a configuration Spring Boot refuses: the framework's own error, the vhost deleted",
    async () => {
      const yml = springBootYml({ enabled: true, maxAttempts: 2 }).replace(
        '      simple:\n',
        '      simple:\n        idle-event-interval: never\n',
      );
      const r = await prove('refused.yml', yml);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/did not start/);
      expect(r.err).toMatch(/'never' is not a valid duration/);
      expect(await ours()).toEqual([]);
    },
    120_000,
  );
});

describe.skipIf(boot.absent() !== undefined)('prove-app --json', () => {
  it('{framework, version, channels: [{consumer, queue, predicted, observed, agree}]} with every attempt recorded', async () => {
    const r = await prove(
      'application.yml',
      springBootYml({ enabled: true, maxAttempts: 3, initialInterval: '300ms', multiplier: 2 }),
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ framework: 'spring-boot', version: '3.5.7' });
    const [c] = j.channels;
    expect(c).toMatchObject({
      consumer: 'app-listener',
      queue: 'app.queue',
      predicted: { attempts: 3, delaysMs: [300, 600], end: 'dropped' },
      observed: { attempts: 3, end: 'dropped' },
      agree: true,
    });
    // stateless retry: one delivery, retried in the listener's thread
    expect(
      c.observed.log.map((a: { deliveryTag: number; redelivered: boolean }) => [a.deliveryTag, a.redelivered]),
    ).toEqual([
      [1, false],
      [1, false],
      [1, false],
    ]);
    expect(await ours()).toEqual([]);
  }, 120_000);
});
