/**
 * No secret ever echoed: every route and CLI command that takes a broker URL, given URLs whose
 * password holds an unencoded '/', '?', '#' or '@', answers without a fragment of the password
 * (JSON bodies, CLI stdout and stderr). The URLs point at the loopback test broker, so whatever
 * the parser makes of them, a connection attempt is real.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cli/cliHarness.js';
import { SECRET_FRAGMENTS, SECRET_URLS } from '../testing/secretUrls.js';
import { useLiveServer } from '../testing/liveServer.js';
import { design, retryLoopDesign } from './testing.js';

const { srv } = useLiveServer();

const leaked = (text: string): string[] => SECRET_FRAGMENTS.filter((f) => text.includes(f));

describe('broker URLs with an unencoded special character in the password', () => {
  it('no HTTP route echoes a fragment of the password', async () => {
    const d = retryLoopDesign('secret');
    const routes: Array<[string, (broker: string) => unknown]> = [
      ['/api/broker', (broker) => ({ broker })],
      ['/api/plan', (broker) => ({ design: d, broker })],
      ['/api/deploy', (broker) => ({ design: d, broker })],
      ['/api/teardown', (broker) => ({ designName: d.name, broker })],
      ['/api/trace', (broker) => ({ design: d, broker })],
      ['/api/operate/import', (broker) => ({ broker })],
      ['/api/operate/depths', (broker) => ({ broker })],
      ['/api/operate/browse', (broker) => ({ broker, queue: 'q' })],
      ['/api/operate/redrive', (broker) => ({ broker, queue: 'q', dryRun: true })],
      ['/api/upgrade/verify', (broker) => ({ design: d, from: '3.10', to: '4.3', broker })],
    ];
    let answers = 0;
    for (const [path, body] of routes) {
      for (const url of SECRET_URLS) {
        const r = await srv.post(path, body(url));
        answers += 1;
        expect(r.status, `${path} ${url}`).toBeGreaterThanOrEqual(400);
        expect(leaked(JSON.stringify(r.body)), `${path} answered ${JSON.stringify(r.body)}`).toEqual([]);
      }
    }
    expect(answers).toBe(routes.length * SECRET_URLS.length);
  }, 120_000);

  it('no CLI command echoes a fragment of the password (stdout and stderr)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-secret-'));
    const file = join(dir, 'design.json');
    writeFileSync(file, JSON.stringify(design({ name: 'secret', queues: [{ name: 'q' }] })));
    const commands = (url: string): string[][] => [
      ['import-broker', '--url', url],
      ['dlq', 'browse', '--url', url, '--queue', 'q'],
      ['dlq', 'redrive', '--url', url, '--queue', 'q', '--dry-run'],
      ['upgrade-check', '--url', url, '--from', '3.10', '--to', '4.3'],
      ['upgrade-check', file, '--from', '3.10', '--to', '4.3', '--verify-on', url],
    ];
    let runs = 0;
    for (const url of SECRET_URLS) {
      for (const argv of commands(url)) {
        const r = await runCliCaptured(dir, argv);
        runs += 1;
        expect(r.code, `${argv.join(' ')}: ${r.err}`).not.toBe(0);
        expect(leaked(r.out + r.err), `${argv.join(' ')} printed ${r.out}${r.err}`).toEqual([]);
      }
    }
    expect(runs).toBe(SECRET_URLS.length * 5);
  }, 120_000);

  it('nor through AMQP_URL, nor with every host allowed (the URL is tried, and its errors say where)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-secret-'));
    const saved = { url: process.env.AMQP_URL, hosts: process.env.RETRY_STUDIO_ALLOWED_HOSTS };
    let runs = 0;
    try {
      for (const hosts of [undefined, '*'])
        for (const url of SECRET_URLS) {
          process.env.AMQP_URL = url;
          if (hosts) process.env.RETRY_STUDIO_ALLOWED_HOSTS = hosts;
          else delete process.env.RETRY_STUDIO_ALLOWED_HOSTS;
          for (const argv of [['import-broker'], ['dlq', 'browse', '--queue', 'q'], ['cleanup']]) {
            const r = await runCliCaptured(dir, argv);
            runs += 1;
            expect(r.code, `${argv.join(' ')}: ${r.err}`).not.toBe(0);
            expect(leaked(r.out + r.err), `AMQP_URL=${url} ${argv.join(' ')} printed ${r.err}`).toEqual([]);
          }
        }
    } finally {
      if (saved.url === undefined) delete process.env.AMQP_URL;
      else process.env.AMQP_URL = saved.url;
      if (saved.hosts === undefined) delete process.env.RETRY_STUDIO_ALLOWED_HOSTS;
      else process.env.RETRY_STUDIO_ALLOWED_HOSTS = saved.hosts;
    }
    expect(runs).toBe(SECRET_URLS.length * 6);
  }, 240_000);
});
