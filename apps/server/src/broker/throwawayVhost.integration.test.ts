/**
 * Every throwaway vhost is deleted, however its run ends: the CLI as a real process, interrupted
 * mid-verify by SIGINT, SIGTERM or SIGHUP, dying of an uncaught error, or facing a broker whose
 * AMQP goes silent; the vhosts are counted before and after. A SIGKILL leaves one behind, and
 * `retry-studio cleanup` finds it by its marker and deletes it. The marker is checked on both
 * brokers. Every vhost here is named under this file's own prefix (RETRY_STUDIO_THROWAWAY_PREFIX).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { quorumNoLimit } from '@retry-studio/topology-core/testing/upgrade';
import { runCliCaptured } from '../cli/cliHarness.js';
import { startCli, type CliProcess } from '../testing/cliProcess.js';
import { startSilentProxy } from '../testing/silentProxy.js';
import { BROKER_310, BROKER_43, TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { vhostsStartingWith } from '../testing/vhostCount.js';
import { ManagementClient } from './management.js';
import { parseAmqpUrl } from './amqpUrl.js';
import { inThrowawayVhost, listThrowawayVhosts, THROWAWAY_TAG } from './throwawayVhost.js';

const PREFIX = `rs-bounds-server-${randomBytes(3).toString('hex')}-`;
let dir = '';
const env = (tag: string) => ({ RETRY_STUDIO_THROWAWAY_PREFIX: `${PREFIX}${tag}-` });
const mgmt = (b: TestBroker) => new ManagementClient(parseAmqpUrl(b.amqpUrl), { baseUrl: b.managementUrl });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-throwaway-'));
  const t = buildTemplate('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 3 });
  if (!t.ok) throw new Error('template');
  writeFileSync(join(dir, 'retry.json'), JSON.stringify(t.template.design));
  // a 3.10 -> 4.3 behaviour difference: --trace traces it live for several seconds
  writeFileSync(join(dir, 'quorum.json'), JSON.stringify(quorumNoLimit()));
});

afterAll(async () => {
  for (const b of TEST_BROKERS) for (const v of await vhostsStartingWith(b, PREFIX)) await mgmt(b).deleteVhost(v);
  rmSync(dir, { recursive: true, force: true });
});

/** a rehearsal on the broker that runs for a minute unless stopped */
const rehearseOn = (b: TestBroker, amqpUrl = b.amqpUrl) => [
  'rehearse',
  'retry.json',
  '--rate',
  '5',
  '--duration',
  '60s',
  '--verify-on',
  amqpUrl,
  '--management-url',
  b.managementUrl,
];

/** started, and the vhost it last announced exists on the broker */
async function midRun(cli: CliProcess, b: TestBroker, prefix: string): Promise<string> {
  await cli.waitFor(/throwaway vhost \S+: creating it/);
  const announced = [...cli.err().matchAll(/throwaway vhost (\S+): creating it/g)].at(-1)![1]!;
  expect(announced.startsWith(prefix)).toBe(true);
  for (let i = 0; i < 100; i++) {
    if ((await vhostsStartingWith(b, prefix)).includes(announced)) return announced;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${announced} did not appear:\n${cli.err()}`);
}

describe('the marker: a tag and a description both brokers keep', () => {
  it.each(TEST_BROKERS.map((b) => [b.name, b] as const))('RabbitMQ %s', async (_name, b) => {
    const prefix = `${PREFIX}marker-`;
    process.env.RETRY_STUDIO_THROWAWAY_PREFIX = prefix;
    try {
      const { vhost, result, cleanedUp } = await inThrowawayVhost(mgmt(b), 'check', async (vh) => {
        const listed = (await mgmt(b).listVhosts()).find((v) => v.name === vh);
        return { listed, found: await listThrowawayVhosts(mgmt(b), [prefix]) };
      });
      expect(vhost.startsWith(`${prefix}rs-upgrade-check-`)).toBe(true);
      const tags = result.listed?.tags;
      expect(Array.isArray(tags) ? tags : String(tags).split(',')).toContain(THROWAWAY_TAG);
      expect(result.listed?.description).toMatch(
        new RegExp(`^retry-studio throwaway vhost \\(check\\), created .* by pid ${process.pid} on `),
      );
      // its run is going on (this process): cleanup leaves it alone
      expect(result.found).toEqual([expect.objectContaining({ name: vhost, marked: true, inUse: true })]);
      expect(cleanedUp).toBe(true);
      expect(await vhostsStartingWith(b, prefix)).toEqual([]);
    } finally {
      delete process.env.RETRY_STUDIO_THROWAWAY_PREFIX;
    }
  });
});

describe('an interrupted run deletes its vhost', () => {
  it('SIGINT during upgrade-check --verify-on --trace: exit 130, no vhost left (4.3)', async () => {
    const prefix = `${PREFIX}int-`;
    expect(await vhostsStartingWith(BROKER_43, prefix)).toEqual([]);
    const cli = startCli(
      ['upgrade-check', 'quorum.json', '--from', '3.10', '--to', '4.3', '--verify-on', BROKER_43.amqpUrl, '--trace'],
      { env: env('int'), cwd: dir },
    );
    // the trace's vhost: its run lasts seconds
    await cli.waitFor(/throwaway vhost \S+rs-upgrade-trace-\S+: creating it/);
    await midRun(cli, BROKER_43, prefix);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toEqual({ code: 130, signal: null });
    expect(cli.err()).toMatch(/SIGINT: deleting throwaway vhost\(s\) .*rs-upgrade-trace-/);
    expect(await vhostsStartingWith(BROKER_43, prefix)).toEqual([]);
  }, 120_000);

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s during rehearse --verify-on: exit %i, no vhost left (3.10)',
    async (signal, code) => {
      const prefix = `${PREFIX}${signal.toLowerCase()}-`;
      const cli = startCli(rehearseOn(BROKER_310), { env: env(signal.toLowerCase()), cwd: dir });
      const vhost = await midRun(cli, BROKER_310, prefix);
      await cli.waitFor('s of load');
      cli.child.kill(signal);
      expect(await cli.exited).toEqual({ code, signal: null });
      expect(cli.err()).toContain(`deleted throwaway vhost ${vhost}`);
      expect(await vhostsStartingWith(BROKER_310, prefix)).toEqual([]);
    },
    120_000,
  );

  it('an uncaught error in the process: exit 1, the error in one line, no vhost left', async () => {
    const prefix = `${PREFIX}fatal-`;
    // thrown from a timer inside the CLI's own process, mid-run
    const boom = `data:text/javascript,setTimeout(() => { throw new Error('boom from a timer') }, 6000)`;
    const cli = startCli(rehearseOn(BROKER_310), { env: env('fatal'), cwd: dir, nodeArgs: ['--import', boom] });
    await midRun(cli, BROKER_310, prefix);
    expect(await cli.exited).toEqual({ code: 1, signal: null });
    expect(cli.err()).toContain('error: boom from a timer');
    expect(cli.err()).not.toMatch(/\n\s+at /);
    expect(await vhostsStartingWith(BROKER_310, prefix)).toEqual([]);
  }, 120_000);

  it('a broker whose AMQP goes silent: the run fails in seconds saying so, the vhost is deleted (management still answers)', async () => {
    const prefix = `${PREFIX}silent-`;
    const proxy = await startSilentProxy(BROKER_310.amqpPort);
    try {
      const cli = startCli(rehearseOn(BROKER_310, `amqp://guest:guest@127.0.0.1:${proxy.port}/`), {
        env: env('silent'),
        cwd: dir,
      });
      await midRun(cli, BROKER_310, prefix);
      await cli.waitFor('s of load');
      proxy.silence();
      const silencedAt = Date.now();
      expect(await cli.exited).toEqual({ code: 1, signal: null });
      // two missed heartbeats of 5 s, and the time to say so: not the 177 s it took
      expect(Date.now() - silencedAt).toBeLessThan(40_000);
      expect(cli.err()).toMatch(/the broker stopped answering on AMQP \(no heartbeat for two intervals of 5 s\)/);
      expect(cli.err()).not.toContain('Channel ended');
      expect(await vhostsStartingWith(BROKER_310, prefix)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});

describe('a reader that went away', () => {
  it('`... | head` closing the pipe mid-verify: the CLI ends quietly once its vhost is deleted', async () => {
    const prefix = `${PREFIX}epipe-`;
    const cli = startCli(
      ['upgrade-check', 'quorum.json', '--from', '3.10', '--to', '4.3', '--verify-on', BROKER_43.amqpUrl, '--trace'],
      { env: env('epipe'), cwd: dir },
    );
    // nobody reads: its first line (the vhost's name, said before the create) meets a closed pipe
    cli.child.stdout!.destroy();
    cli.child.stderr!.destroy();
    const exit = await cli.exited;
    expect(exit.signal).toBeNull();
    expect(await vhostsStartingWith(BROKER_43, prefix)).toEqual([]);
  }, 120_000);
});

describe('SIGKILL leaves it; retry-studio cleanup deletes it', () => {
  it('found by its marker, listed, deleted; a second cleanup finds nothing', async () => {
    const prefix = `${PREFIX}kill-`;
    const cli = startCli(rehearseOn(BROKER_310), { env: env('kill'), cwd: dir });
    const vhost = await midRun(cli, BROKER_310, prefix);
    cli.child.kill('SIGKILL');
    expect(await cli.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await vhostsStartingWith(BROKER_310, prefix)).toEqual([vhost]);
    const dry = await runCliCaptured(dir, ['cleanup', '--url', BROKER_310.amqpUrl, '--prefix', prefix, '--dry-run']);
    expect(dry).toMatchObject({ code: 0, out: `would delete ${vhost}\n` });
    const r = await runCliCaptured(dir, ['cleanup', '--url', BROKER_310.amqpUrl, '--prefix', prefix, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ vhosts: [{ vhost, action: 'deleted' }] });
    expect(await vhostsStartingWith(BROKER_310, prefix)).toEqual([]);
    const again = await runCliCaptured(dir, ['cleanup', '--url', BROKER_310.amqpUrl, '--prefix', prefix]);
    expect(again).toMatchObject({ code: 0, out: 'no throwaway vhost left by retry-studio on this broker\n' });
  }, 120_000);
});
