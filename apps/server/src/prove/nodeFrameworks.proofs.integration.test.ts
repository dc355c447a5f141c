/**
 * Rascal and NestJS (@golevelup/nestjs-rabbitmq) run for real on both brokers. import-app does not
 * read them yet (fw-read's readers are coming): a Rascal configuration still runs, and the proof
 * shows what Rascal did beside "no reading" and fails; a NestJS module is TypeScript the runner
 * does not compile, so its runner is checked on its own with the library's defaults (a failed message
 * is requeued at once, for ever). When a reader
 * lands, the Rascal case asks for agreement instead.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { inThrowawayVhost } from '../upgrade/throwawayVhost.js';
import { runnerFor } from './frameworkRunners.js';
import { proveApp } from './proveApp.js';
import { proofText } from './proofText.js';
import { runChannel } from './runChannel.js';
import { ALWAYS, FAIL_FIRST_2, TEST_VHOST_PREFIX } from './testing/proofCases.js';

const dir = mkdtempSync(path.join(tmpdir(), 'rs-prove-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Rascal configuration: one subscription on a queue that dead-letters into its DLQ (Rascal's README shape). */
function rascalConfig(queue: string): string {
  return JSON.stringify(
    {
      vhosts: {
        '/': {
          queues: {
            [queue]: {
              options: { arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${queue}.dlq` } },
            },
            [`${queue}.dlq`]: {},
          },
          subscriptions: { [`${queue}_handler`]: { queue } },
        },
      },
    },
    null,
    2,
  );
}

const rascal = runnerFor('rascal', undefined);
const nest = runnerFor('nestjs', undefined);

describe.concurrent('Rascal and NestJS run on both brokers', () => {
  for (const b of TEST_BROKERS)
    for (const failure of [ALWAYS, FAIL_FIRST_2]) {
      const mode = failure.kind === 'always' ? 'always' : 'fail-first-2';
      it.skipIf(rascal.absent() !== undefined)(
        `Rascal's default recovery (ackOrNack(err)) on ${b.name}, ${mode}: one attempt, then the queue's dead-letter route`,
        async () => {
          const file = path.join(dir, `rascal-${b.name}-${mode}.json`);
          writeFileSync(file, rascalConfig('orders.q'));
          const r = await proveApp({
            files: [{ name: path.basename(file), path: file, text: rascalConfig('orders.q') }],
            url: parseAmqpUrl(b.amqpUrl),
            managementUrl: b.managementUrl,
            failure,
            vhostPrefix: TEST_VHOST_PREFIX,
          });
          const text = proofText(r);
          expect(r.framework, text).toBe('rascal');
          const [c] = r.channels;
          // the README says nack with requeue; Rascal 21 nacks without: the broker dead-letters it
          expect(c?.observed, text).toMatchObject({ attempts: 1, end: 'queue:orders.q.dlq' });
          expect(c?.cleanedUp).toBe(true);
          if (r.noReading) expect(c?.agree).toBe(false);
          else expect(c?.differences, text).toEqual([]);
        },
        120_000,
      );

      it.skipIf(nest.absent() !== undefined)(
        `@golevelup/nestjs-rabbitmq's default error handler on ${b.name}, ${mode}: requeued at once, for ever`,
        async () => {
          const mgmt = new ManagementClient(parseAmqpUrl(b.amqpUrl), { baseUrl: b.managementUrl });
          const workDir = mkdtempSync(path.join(dir, 'nest-'));
          const run = await inThrowawayVhost(
            mgmt,
            'nestjs',
            (vhost) =>
              runChannel({
                runner: nest,
                design: undefined,
                files: [],
                url: parseAmqpUrl(b.amqpUrl),
                vhost,
                management: mgmt,
                channel: {
                  consumer: 'handler',
                  queue: 'orders.q',
                  publish: { exchange: '', routingKey: 'orders.q' },
                  body: 'order-1',
                },
                prediction: undefined,
                failure,
                springProfiles: [],
                workDir,
                maxRunMs: 60_000,
              }),
            TEST_VHOST_PREFIX,
          );
          expect(run.cleanedUp).toBe(true);
          expect(run.result.version).toBe('9.0.2');
          // the library's default is REQUEUE (golevelup/nestjs #138: "infinite loop of very fast retries"):
          // failing always, the watch stops it after 30 turns; failing twice, the third attempt is acked
          expect(run.result.observed).toMatchObject(
            failure.kind === 'always' ? { attempts: 30, end: 'cycling' } : { attempts: 3, end: 'acked' },
          );
        },
        120_000,
      );
    }

  it('a NestJS module is not run without a reading: the proof says so and fails', async () => {
    const text =
      "@Module({ imports: [RabbitMQModule.forRoot({ uri: 'amqp://localhost' })] })\nexport class AppModule {}\n";
    const r = await proveApp({
      files: [{ name: 'app.module.ts', path: path.join(dir, 'app.module.ts'), text }],
      url: parseAmqpUrl(TEST_BROKERS[0]!.amqpUrl),
      managementUrl: TEST_BROKERS[0]!.managementUrl,
      failure: ALWAYS,
      vhostPrefix: TEST_VHOST_PREFIX,
    });
    if (r.noReading) {
      expect(r.noReading).toMatch(/^no reading: import-app does not read nestjs yet/);
      expect(r.channels).toEqual([]);
    } else expect(r.channels.every((c) => c.agree)).toBe(true);
  });
});
