/**
 * `upgrade-check --url`: a live 3.10.8 vhost read through the broker layer, its profile taken
 * from the broker (no --from), checked against 4.3: refusals named; a vhost that does not exist
 * and --from contradicting the broker are errors naming the option.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { runCliCaptured } from './cliHarness.js';

const vhost = `rs-upgrade-url-${randomBytes(4).toString('hex')}`;
const mgmt = new ManagementClient(parseAmqpUrl(BROKER_310.amqpUrl), { baseUrl: BROKER_310.managementUrl });
const url = `${BROKER_310.amqpUrl}${encodeURIComponent(vhost)}`;
const cli = (...argv: string[]) =>
  runCliCaptured(process.cwd(), ['upgrade-check', ...argv, '--management-url', BROKER_310.managementUrl]);

beforeAll(async () => {
  await mgmt.createVhost(vhost);
  await mgmt.loadDefinitions(vhost, {
    queues: [
      {
        name: 'u.q',
        durable: true,
        auto_delete: false,
        arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': 'u.dlx' },
      },
      { name: 'u.dlq', durable: true, auto_delete: false, arguments: { 'x-queue-version': 1 } },
    ],
    exchanges: [
      { name: 'u', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} },
      { name: 'u.dlx', type: 'fanout', durable: true, auto_delete: false, internal: false, arguments: {} },
    ],
    bindings: [
      { source: 'u', destination: 'u.q', destination_type: 'queue', routing_key: 'k', arguments: {} },
      { source: 'u.dlx', destination: 'u.dlq', destination_type: 'queue', routing_key: '', arguments: {} },
    ],
    policies: [
      { name: 'u-ha', pattern: '^u\\.dlq$', 'apply-to': 'queues', priority: 0, definition: { 'ha-mode': 'all' } },
    ],
  });
});
afterAll(async () => {
  await mgmt.deleteVhost(vhost);
});

describe('upgrade-check --url (RabbitMQ 3.10.8)', () => {
  it('reads the vhost and its profile from the broker, names what 4.3 refuses', async () => {
    const r = await cli('--url', url, '--to', '4.3');
    expect(r.err).toBe('');
    expect(r.out).toMatch(new RegExp(`^vhost '${vhost}' on RabbitMQ 3\\.10\\.8: RabbitMQ 3\\.10 -> 4\\.3`));
    expect(r.out).toContain('REFUSED          classic-mirroring-policy: policy u-ha');
    expect(r.out).toContain('REFUSED          classic-queue-version-1: queue u.dlq');
    expect(r.code).toBe(1);
  });
  it('--from contradicting the broker, and a vhost that does not exist: errors naming the option', async () => {
    const wrong = await cli('--url', url, '--from', '4.x', '--to', '4.3');
    expect(wrong.err).toContain('--from 4.x: the broker says 3.10');
    const missing = await cli('--url', `${BROKER_310.amqpUrl}no-such-${vhost}`, '--to', '4.3');
    // the question is wrong (cli/exitCodes.ts)
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--url: .*vhost 'no-such-/);
  });
});
