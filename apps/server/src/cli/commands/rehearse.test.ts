/**
 * `retry-studio rehearse`: the flags (durations, rates, percentages, outages, a scenario file),
 * the bill of materials in text and JSON, a definitions file with the assumed actors, and bad
 * input (exit 2, the option named).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fig, uniformCalibration } from '@retry-studio/topology-core/testing/calibration';
import { runCliCaptured } from '../cliHarness.js';
import { parseDuration, parseOutage, parseRate, parseShare } from './rehearseArgs.js';

let dir = '';
const cli = (...argv: string[]) => runCliCaptured(dir, argv);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rs-rehearse-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('rehearse flags', () => {
  it('reads durations, rates, percentages and outages', () => {
    expect(parseDuration('--duration', '90s')).toBe(90_000);
    expect(parseDuration('--duration', '10m')).toBe(600_000);
    expect(parseDuration('--duration', '1h')).toBe(3_600_000);
    expect(parseDuration('--duration', '250ms')).toBe(250);
    expect(parseRate('--rate', '500/s')).toBe(500);
    expect(parseRate('--rate', '500')).toBe(500);
    expect(parseShare('--poison', '2%')).toBeCloseTo(0.02);
    expect(parseOutage('orders.q@5m+10m')).toEqual({
      target: 'orders.q',
      consumerOutages: [{ startMs: 300_000, endMs: 900_000 }],
    });
    expect(() => parseDuration('--duration', 'soon')).toThrow(/--duration/);
  });
});

describe('retry-studio rehearse', () => {
  it('prints the retry bill of materials for a template under an outage', async () => {
    const r = await cli(
      'rehearse',
      'dlx-ttl-wait-queue',
      '--param',
      'delayMs=2000',
      '--param',
      'maxRetries=5',
      '--rate',
      '10/s',
      '--duration',
      '60s',
      '--outage',
      'worker@10s+30s',
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/parked\s+200\s+33\.3%\s+orders\.parking 200/);
    expect(r.out).toMatch(/orders\.wait\s+classic v1\s+100/);
    expect(r.out).toMatch(/^Verdict\n {2}orders\.wait peaks at 100 messages/m);
    expect(r.out).toMatch(/broker figures: RabbitMQ 3\.10\.8, measured/);
    expect(r.out).toMatch(/Retry storm: 50 retries\/s/);
  });

  it("--json has the issue's names; --scenario gives the load", async () => {
    const file = path.join(dir, 'load.json');
    await writeFile(
      file,
      JSON.stringify({
        rate: 10,
        durationMs: 30_000,
        targets: [{ target: 'worker', consumerOutages: [{ startMs: 5000, endMs: 15_000 }] }],
      }),
    );
    const r = await cli('rehearse', 'quorum-delivery-limit', '--scenario', file, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.outcomes).toEqual({
      acked: 200,
      parked: 100,
      parkedIn: { 'jobs.dead': 100 },
      dropped: 0,
      expired: 0,
      inFlight: 0,
    });
    for (const k of ['messages', 'deliveries', 'amplification', 'delayMs', 'drainMs', 'queues', 'brokerOps', 'wallMs'])
      expect(j).toHaveProperty(k);
    expect(Object.keys(j.queues[0])).toEqual(
      expect.arrayContaining(['name', 'peakDepth', 'peakAtMs', 'peakMemoryBytes', 'series']),
    );
  });

  it('a definitions file runs with the actors lint assumes, and says so', async () => {
    const file = path.join(dir, 'defs.json');
    const x = (name: string) => ({
      name,
      vhost: '/',
      type: 'direct',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
    const q = (name: string, args: Record<string, unknown> = {}) => ({
      name,
      vhost: '/',
      durable: true,
      auto_delete: false,
      arguments: args,
    });
    const b = (source: string, destination: string) => ({
      source,
      vhost: '/',
      destination,
      destination_type: 'queue',
      routing_key: 'job',
      arguments: {},
    });
    await writeFile(
      file,
      JSON.stringify({
        rabbit_version: '3.10.8',
        exchanges: [x('app'), x('retry'), x('back')],
        queues: [
          q('work', { 'x-dead-letter-exchange': 'retry' }),
          q('work.wait', { 'x-message-ttl': 1000, 'x-dead-letter-exchange': 'back' }),
        ],
        bindings: [b('app', 'work'), b('retry', 'work.wait'), b('back', 'work')],
      }),
    );
    const r = await cli('rehearse', file, '--rate', '5', '--duration', '20s', '--outage', 'work@2s+5s', '--json');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/rehearsed with the ones lint assumes/);
    expect(JSON.parse(r.out).messages).toBe(100);
  });

  it('a definitions file of policies only says it declares no queue (RabbitMQ case1, corpus/README.md)', async () => {
    const file = path.join(dir, 'policies.json');
    await writeFile(
      file,
      JSON.stringify({
        vhosts: [{ name: '/' }],
        queues: [],
        policies: [
          { vhost: '/', name: 'p', pattern: '^x', 'apply-to': 'queues', priority: 0, definition: { expires: 1000 } },
        ],
      }),
    );
    const r = await cli('rehearse', file, '--rate', '5', '--duration', '10s');
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'no publisher to rehearse (and none can be assumed: the file declares no queue; it holds 1 policy and 0 exchange(s))',
    );
  });

  it('bad input: exit 2, the option named', async () => {
    const cases: [string[], RegExp][] = [
      [['--rate', '0', '--duration', '10s'], /--rate/],
      [['--rate', '5', '--duration', '0s'], /--duration/],
      [['--rate', '5', '--duration', '10s', '--outage', 'worker@20s+5s'], /--outage worker@20s\+5s/],
      [['--rate', '5', '--duration', '10s', '--outage', 'nobody@1s+5s'], /--outage nobody@1s\+5s: "nobody" is neither/],
      [['--rate', '5', '--duration', '10s', '--poison', '150%'], /--poison/],
      [['--rate', '5', '--duration', '10s', '--verify-on', 'amqp://guest:guest@127.0.0.1:1/'], /--verify-on/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli('rehearse', 'dlx-ttl-wait-queue', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
    }
  });
});

describe("retry-studio rehearse: the broker's bill", () => {
  const calFile = async (name: string, v: unknown): Promise<string> => {
    const f = path.join(dir, name);
    await writeFile(f, typeof v === 'string' ? v : JSON.stringify(v));
    return f;
  };

  it('--json: RAM and disk per queue, held, node with alarms, loops, the calibration named', async () => {
    const r = await cli(
      'rehearse',
      'dlx-ttl-wait-queue',
      '--rate',
      '10',
      '--duration',
      '30s',
      '--outage',
      'worker@5s+10s',
      '--json',
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Object.keys(j.queues[0])).toEqual(
      expect.arrayContaining(['peakDepth', 'peakHeld', 'peakMemoryBytes', 'peakDiskBytes', 'storage', 'perMessage']),
    );
    expect(j.held).toEqual([]);
    expect(Object.keys(j.node)).toEqual(expect.arrayContaining(['peakMemoryBytes', 'peakDiskBytes', 'alarms']));
    expect(j.loops).toEqual([]);
    expect(j.calibration).toMatchObject({ brokerVersion: '3.10.8', source: 'shipped' });
    expect(j.copies).toBe(j.messages);
  });

  it('a calibration that is not one, a negative memory, a ceiling of 0, a bad size: exit 2, the option and field named', async () => {
    const good = uniformCalibration();
    const cases: [string[], RegExp][] = [
      [['--calibration', await calFile('a.json', '{nope')], /--calibration .*a\.json: not a calibration: not JSON/],
      [['--calibration', await calFile('b.json', { rate: 1 })], /--calibration .*b\.json: format: not a calibration/],
      [
        [
          '--calibration',
          await calFile('c.json', { ...good, footprint: [{ ...good.footprint[0]!, diskBytesPerMessage: fig(-1) }] }),
        ],
        /footprint\[0\]\.diskBytesPerMessage\.value must be 0 or more bytes/,
      ],
      [
        [
          '--calibration',
          await calFile('d.json', { ...good, ceilings: [{ ...good.ceilings[0]!, publishPerSec: fig(0) }] }),
        ],
        /ceilings\[0\]\.publishPerSec\.value must be above 0/,
      ],
      [['--broker-memory', '-4GiB'], /--broker-memory: "-4GiB" is not a size/],
      [['--broker-memory', '0'], /--broker-memory: the broker's memory must be above 0/],
      [['--disk-free', 'lots'], /--disk-free/],
      [['--runs', '0'], /--runs/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli('rehearse', 'dlx-ttl-wait-queue', '--rate', '5', '--duration', '10s', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
    }
  });

  it('a calibration of another version than the rules: said, and used', async () => {
    const f = await calFile('v43.json', uniformCalibration({ version: '4.3.6', ramBytes: 77 }));
    const r = await cli('rehearse', 'dlx-ttl-wait-queue', '--rate', '5', '--duration', '10s', '--calibration', f);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/note: the calibration was measured on RabbitMQ 4\.3\.6, the rules are RabbitMQ 3\.10's/);
    expect(r.out).toMatch(/broker figures: RabbitMQ 4\.3\.6, measured 2026-01-01 \(--calibration/);
  });

  it('a hot nack loop on 4.3 runs at the calibrated rate and exits 1', async () => {
    const r = await cli(
      'rehearse',
      'quorum-delivery-limit',
      '--profile',
      '4.3',
      '--rate',
      '50',
      '--duration',
      '60s',
      '--outage',
      'worker@10s+20s',
      '--json',
    );
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.loops[0]).toMatchObject({ queue: 'jobs.q' });
    expect(j.loops[0].deliveriesPerSecond).toBeGreaterThan(1000);
  });

  it('--runs N reports p5, p50 and p95 of every figure', async () => {
    const r = await cli(
      'rehearse',
      'dlx-ttl-wait-queue',
      '--rate',
      '20',
      '--duration',
      '30s',
      '--error-rate',
      '20%',
      '--runs',
      '3',
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Over 3 seeds \(1, 2, 3\)/);
    expect(r.out).toMatch(/outcomes\.parked\s+\d+\s+\d+\s+\d+/);
  });
});

describe('retry-studio rehearse --load (retry-load/1)', () => {
  it('reads a versioned load; an unversioned one by its old names, said; another format is exit 2', async () => {
    const v1 = path.join(dir, 'v1.json');
    await writeFile(
      v1,
      JSON.stringify({
        format: 'retry-load/1',
        rate: 10,
        durationMs: 30_000,
        targets: [{ target: 'worker', consumerOutages: [{ startMs: 5000, endMs: 15_000 }] }],
      }),
    );
    const a = await cli('rehearse', 'quorum-delivery-limit', '--load', v1, '--json');
    expect(a.code).toBe(0);
    expect(a.err).toBe('');
    expect(JSON.parse(a.out).outcomes.parked).toBe(100);
    const old = path.join(dir, 'old.json');
    await writeFile(
      old,
      JSON.stringify({
        rate: 10,
        durationMs: 30_000,
        targets: [{ target: 'worker', outages: [{ startMs: 5000, endMs: 15_000 }] }],
      }),
    );
    const b = await cli('rehearse', 'quorum-delivery-limit', '--scenario', old, '--json');
    expect(b.code).toBe(0);
    expect(b.err).toMatch(
      /--scenario .*old\.json: no "format": read as an unversioned load file \(targets\[\]\.outages read as consumerOutages\)/,
    );
    expect(JSON.parse(b.out).outcomes.parked).toBe(100);
    const other = path.join(dir, 'other.json');
    await writeFile(other, JSON.stringify({ format: 'retry-load/9' }));
    const c = await cli('rehearse', 'quorum-delivery-limit', '--load', other);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/--load .*other\.json: format: "format" is "retry-load\/9"/);
  });
});
