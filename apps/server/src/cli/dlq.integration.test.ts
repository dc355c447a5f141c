/** `pnpm cli import-broker` and `pnpm cli dlq browse|redrive` on both real brokers. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from '../operate/testing.js';
import { runCli } from './main.js';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (s) => void (out += s), err: (s) => void (err += s), cwd: process.cwd() });
  return { code, out, err };
}

describe.each(TEST_BROKERS)('pnpm cli on RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await v?.cleanup();
    v = undefined;
  });
  const target = (vhost: string) => [
    '--url',
    broker.amqpUrl,
    '--vhost',
    vhost,
    '--management-url',
    broker.managementUrl,
  ];

  it('import-broker prints a design; dlq browse says what looking changes; redrive --json counts per destination', async () => {
    v = await deadLetterVhost(broker, 'cli');
    await v.deadLetter(3, { headers: { 'x-exception-message': 'Timeout' } });
    const imp = await cli(['import-broker', ...target(v.vhost)]);
    expect(imp.code).toBe(0);
    expect(JSON.parse(imp.out).topology.queues).toHaveLength(2);
    expect(imp.err).toMatch(/parking queues \(where dead letters pile up\): orders\.dlq/);

    const b = await cli(['dlq', 'browse', ...target(v.vhost), '--queue', ORDERS.dlq]);
    expect(b.code).toBe(0);
    expect(b.err).toMatch(/note: reading a classic queue .* redelivered/);
    expect(b.out).toMatch(/3 +orders\.work\|rejected\|Timeout/);
    const bj = JSON.parse(
      (await cli(['dlq', 'browse', ...target(v.vhost), '--queue', ORDERS.dlq, '--json', '--limit', '2'])).out,
    );
    expect(bj.messages).toHaveLength(2);

    const dry = await cli(['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq, '--dry-run']);
    expect(dry.out).toMatch(/dry run: 3 would move/);
    // said before anything moves: nobody consumes the destination
    expect(dry.out).toMatch(/warning: nobody consumes 'orders\.work': the 3 copies will wait there/);
    const r = await cli(['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq, '--json', '--rate', '1000']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      status: 'done',
      moved: 3,
      byDestination: { 'orders:order.created -> orders.work': 3 },
    });
  });

  it('bad input: clear errors, exit codes 1 and 2', async () => {
    v = await deadLetterVhost(broker, 'clibad');
    expect(await cli(['dlq', 'browse', ...target(v.vhost), '--queue', 'nope'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/queue 'nope' does not exist/),
    });
    expect(await cli(['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq, '--rate', '0'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--rate must be a positive/),
    });
    // slower than a timer can wait would run at full speed: refused with the minimum
    expect(await cli(['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq, '--rate', '1e-9'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--rate must be at least 4\.8e-7 messages per second \(one per 24 days/),
    });
    expect(await cli(['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq, '--limit', '-1'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--limit must be between/),
    });
    expect(await cli(['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq, '--filter', 'x'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--filter/),
    });
    const empty = await cli(['dlq', 'browse', ...target(v.vhost), '--queue', ORDERS.dlq]);
    expect(empty.out).toMatch(/0 message\(s\)/);
  });

  it('a re-drive that moves fewer than it selected (its destination gone) exits 1 and says why', async () => {
    v = await deadLetterVhost(broker, 'clishort');
    await v.deadLetter(4);
    // the exchange the dead letters came from is gone: nothing can go back where it died
    const r = await cli(['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq, '--to', 'gone.exchange']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error: moved 0 of 4 selected: 4 exchange 'gone\.exchange' does not exist/);
  });

  it('redrive --canary with no consumer stops on a timeout; --patch and --set-header edit each copy; bad options name themselves', async () => {
    v = await deadLetterVhost(broker, 'clicanary');
    await v.deadLetter(5, { body: (i) => JSON.stringify({ n: i, amount: '1' }) });
    const base = ['dlq', 'redrive', ...target(v.vhost), '--queue', ORDERS.dlq];
    expect(await cli([...base, '--canary', '0'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--canary must be/),
    });
    expect(await cli([...base, '--canary', '2', '--canary-wait-ms', '-1'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--canary-wait-ms must be 0 or more/),
    });
    expect(await cli([...base, '--canary', '2', '--max-refail', '3'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--max-refail 3 is above the canary of 2/),
    });
    expect(await cli([...base, '--canary', '6'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/--canary 6 is more than the 5 message\(s\) selected/),
    });
    expect(await cli([...base, '--set-header', 'x-death=1'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--set-header: header 'x-death'/),
    });
    expect(await v.depth(ORDERS.dlq)).toBe(5);
    // a TTL (by policy) and no consumer: the dry run says they would come straight back
    await v.target.management.putPolicy(v.vhost, 'ttl', {
      pattern: '^orders\\.work$',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'message-ttl': 200 },
    });
    const dry = await cli([...base, '--dry-run']);
    expect(dry.out).toMatch(/dry run: 5 would move/);
    expect(dry.out).toMatch(
      /warning: 'orders\.work' has x-message-ttl 200 ms and no consumer: the 5 copies expire and dead-letter back into 'orders\.dlq'/,
    );
    await v.target.management.deletePolicy(v.vhost, 'ttl');

    // nobody consumes orders.work: the canary's copies sit there, and the verdict says so
    const c = await cli([...base, '--canary', '2', '--canary-wait-ms', '300', '--json']);
    expect(c.code).toBe(1);
    const cp = JSON.parse(c.out);
    expect(cp).toMatchObject({
      status: 'stopped',
      moved: 2,
      waiting: 2,
      untouched: 3,
      batches: [{ verdict: { kind: 'stop', basis: 'timeout' } }],
    });
    expect(cp.stopReason).toMatch(/still in the destination/);
    await v.drain(ORDERS.work);

    const dir = mkdtempSync(join(tmpdir(), 'rs-patch-'));
    writeFileSync(join(dir, 'fix.json'), JSON.stringify([{ op: 'replace', path: '/amount', value: 1 }]));
    const e = await cli([...base, '--patch', join(dir, 'fix.json'), '--set-header', 'x-fixed=yes', '--json']);
    expect(e.code, e.err).toBe(0);
    expect(JSON.parse(e.out)).toMatchObject({ status: 'done', moved: 3 });
    const got = await v.drain(ORDERS.work);
    expect(got.map((m) => JSON.parse(m.body).amount)).toEqual([1, 1, 1]);
    expect(got[0]!.headers).toMatchObject({
      'x-fixed': 'yes',
      'x-redrive-edited': 'patch replace /amount; headers x-fixed',
    });
  });
});
