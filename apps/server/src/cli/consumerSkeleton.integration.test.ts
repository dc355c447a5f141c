/**
 * A generated consumer skeleton, run for real: its handle() is made to fail, and the message
 * must take the template's documented path on the broker (dlx-ttl-wait-queue: 3 attempts,
 * then parked).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportAmqplibScript, exportConsumerSkeleton } from '@retry-studio/topology-core/io';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { DEFAULT_AMQP_URL, ManagementClient, openConnection, parseAmqpUrl, withVhost } from '../broker/index.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { waitUntil } from '../testing/waitUntil.js';

const url = parseAmqpUrl(DEFAULT_AMQP_URL);
const mgmt = new ManagementClient(url, { baseUrl: BROKER_310.managementUrl });
const vhost = `retry-skeleton-${process.pid}`;
const serverDir = path.resolve(__dirname, '../..');
const dir = path.join(serverDir, 'node_modules', '.retry-studio-skeleton-run');
let child: ChildProcess | undefined;

afterAll(async () => {
  // the skeleton runs under npx/tsx: end its whole process group (started by this test)
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
  await mgmt.deleteVhost(vhost);
  await rm(dir, { recursive: true, force: true });
});

describe('generated consumer skeleton on the broker', () => {
  it('dlx-ttl-wait-queue: a failing handler retries twice through the wait queue, then parks the message', async () => {
    const r = buildTemplate('dlx-ttl-wait-queue', { maxRetries: 2, delayMs: 200 });
    if (!r.ok) throw new Error('build');
    const design = r.template.design;
    await mgmt.createVhost(vhost);
    await mkdir(dir, { recursive: true });
    const env = { ...process.env, AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${encodeURIComponent(vhost)}` };
    await writeFile(path.join(dir, 'setup.ts'), exportAmqplibScript(design.topology));
    await promisify(execFile)('npx', ['tsx', path.join(dir, 'setup.ts')], { cwd: serverDir, env });
    const skeleton = exportConsumerSkeleton(design).replace(
      '  void msg;\n',
      "  void msg;\n  throw new Error('always fails');\n",
    );
    expect(skeleton).toContain("throw new Error('always fails')");
    await writeFile(path.join(dir, 'consumers.ts'), skeleton);
    child = spawn('npx', ['tsx', path.join(dir, 'consumers.ts')], {
      cwd: serverDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    // wait until the skeleton is consuming
    // a child process compiled by tsx starts slowly on a loaded machine: 15 s raced it (the expect below shows its output)
    await waitUntil(() => out.includes('consuming'), 'the skeleton consuming', { timeoutMs: 60_000 }).catch(
      () => undefined,
    );
    expect(out).toContain('consuming with 1 consumer(s)');
    const conn = await openConnection(withVhost(url, vhost), { purpose: 'cli', label: 'skeleton-test' });
    try {
      const ch = await conn.createConfirmChannel();
      ch.publish('orders', 'task', Buffer.from('job-1'), { messageId: 'job-1' });
      await ch.waitForConfirms();
      // two TTL waits, then the management statistics (every 5 s): 10 s raced them on a loaded machine
      const deadline = Date.now() + 30_000;
      let parked = 0;
      while (Date.now() < deadline) {
        parked = (await mgmt.queue(vhost, 'orders.parking'))?.messages ?? 0;
        if (parked > 0) break;
        await new Promise((res) => setTimeout(res, 200));
      }
      expect(parked).toBe(1);
      const got = await ch.get('orders.parking', { noAck: true });
      if (!got) throw new Error('no message');
      const deaths = got.properties.headers?.['x-death'] as { queue: string; reason: string; count: number }[];
      expect(deaths.find((d) => d.queue === 'orders.q' && d.reason === 'rejected')?.count).toBe(2);
      expect(deaths.find((d) => d.queue === 'orders.wait' && d.reason === 'expired')?.count).toBe(2);
      await ch.close();
    } finally {
      await conn.close();
    }
  }, 150_000);
});
