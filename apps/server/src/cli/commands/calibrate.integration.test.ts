/**
 * `retry-studio calibrate`: bad options named (exit 2) before any broker is touched, and a small
 * flow measurement against the real 3.10 broker (`--measure flow`): a retry-calibration/1 file whose
 * flow row holds more per message than a settled classic v1 queue's body and state, and no vhost left.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient, parseAmqpUrl } from '../../broker/index.js';
import { BROKER_310 } from '../../testing/testBrokers.js';
import { runCliCaptured } from '../cliHarness.js';

let dir = '';
const cli = (...argv: string[]) => runCliCaptured(dir, argv);
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rs-calibrate-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('retry-studio calibrate', () => {
  it('names the option that is wrong, exit 2', async () => {
    const url = ['--url', BROKER_310.amqpUrl];
    expect(await cli('calibrate')).toMatchObject({ code: 2, err: expect.stringMatching(/--url is required/) });
    expect(await cli('calibrate', ...url, '--measure', 'flow,speed')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--measure: "speed" is not one of footprint, flow, ceilings, delayed-exchange/),
    });
    expect(await cli('calibrate', ...url, '--storages', 'classic,stream')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--storages: "stream" is not one of/),
    });
    expect(await cli('calibrate', ...url, '--runs', '0')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--runs/),
    });
  });

  it('measures RAM per held message under a flow on the real broker, and leaves no vhost', async () => {
    const out = path.join(dir, 'flow.json');
    const prefix = `rs-calibrate-test-${process.pid}`;
    const r = await cli(
      'calibrate',
      '--url',
      BROKER_310.amqpUrl,
      '--management-url',
      BROKER_310.managementUrl,
      '--storages',
      'classic',
      '--measure',
      'flow',
      '--messages',
      '2000',
      '--runs',
      '1',
      '--vhost-prefix',
      prefix,
      '--out',
      out,
    );
    expect(r.code, r.err).toBe(0);
    const cal = JSON.parse(await readFile(out, 'utf8'));
    expect(cal.format).toBe('retry-calibration/1');
    expect(cal.footprint).toEqual([]);
    expect(cal.flow).toHaveLength(1);
    const row = cal.flow[0];
    expect(row).toMatchObject({ storage: 'classic', bodyBytes: 1024, ratePerSecond: 1000, messages: 2000 });
    // a 3.10 classic v1 queue keeps each 1 KiB body in RAM, and a flow holds more than that
    expect(row.ramBytesPerMessage.value).toBeGreaterThan(1024);
    const mgmt = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });
    expect((await mgmt.listVhosts()).filter((v) => v.name.startsWith(prefix))).toEqual([]);
  }, 120_000);
});
