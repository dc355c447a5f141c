import { describe, expect, it } from 'vitest';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { parseAmqpUrl } from './amqpUrl.js';
import { exchangeTypeSupported, probeBroker } from './probe.js';

describe.each(TEST_BROKERS)('probeBroker (real broker $name)', (b) => {
  const url = parseAmqpUrl(b.amqpUrl);

  it('reports product, version, exchange types, quorum and its own management API, found by itself', async () => {
    const p = await probeBroker(url, { env: {} });
    expect(p.product).toBe('RabbitMQ');
    expect(p.version.startsWith(`${b.name}.`)).toBe(true);
    expect(p.url).toBe(`amqp://guest:***@127.0.0.1:${b.amqpPort}/%2F`);
    expect(p.exchangeTypesSource).toBe('management');
    expect(p.exchangeTypes).toEqual(expect.arrayContaining(['direct', 'fanout', 'topic', 'headers']));
    expect(p.management).toMatchObject({ available: true, baseUrl: b.managementUrl, source: 'discovered' });
    expect(p.quorum).toBe(true);
    expect(p.suggestedProfile).toBe(b.name);
    expect(p.plugins['x-delayed-message']).toBe(p.exchangeTypes.includes('x-delayed-message'));
  });

  it('falls back to throwaway-connection declares without management, with the same answer', async () => {
    const withMgmt = await probeBroker(url, { env: {} });
    const p = await probeBroker(url, { managementUrl: 'http://127.0.0.1:1' });
    expect(p.management.available).toBe(false);
    expect(p.management.error).toMatch(/^managementUrl: http:\/\/127\.0\.0\.1:1 is not reachable/);
    expect(p.exchangeTypesSource).toBe('declare');
    expect(p.plugins).toEqual(withMgmt.plugins);
  });

  it('detects an unknown type without harm', async () => {
    expect(await exchangeTypeSupported(url, 'x-no-such-type')).toBe(false);
    expect(await exchangeTypeSupported(url, 'topic')).toBe(true);
  });
});
