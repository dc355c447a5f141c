import { describe, expect, it } from 'vitest';
import { parseAmqpUrl } from './amqpUrl.js';
import { ManagementClient } from './management.js';
import { exchangeTypeSupported, probeBroker } from './probe.js';

const url = parseAmqpUrl(process.env.AMQP_URL);

describe('probeBroker (real broker)', () => {
  it('reports product, version, exchange types, quorum and management', async () => {
    const p = await probeBroker(url);
    expect(p.product).toBe('RabbitMQ');
    expect(p.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(p.url).toBe('amqp://guest:***@127.0.0.1:5672/%2F');
    expect(p.exchangeTypesSource).toBe('management');
    expect(p.exchangeTypes).toEqual(expect.arrayContaining(['direct', 'fanout', 'topic', 'headers']));
    expect(p.management.available).toBe(true);
    expect(p.quorum).toBe(true);
    expect(p.plugins['x-delayed-message']).toBe(p.exchangeTypes.includes('x-delayed-message'));
  });

  it('falls back to throwaway-connection declares without management, with the same answer', async () => {
    const withMgmt = await probeBroker(url);
    const p = await probeBroker(url, { management: new ManagementClient(url, { baseUrl: 'http://127.0.0.1:1', timeoutMs: 500 }) });
    expect(p.management.available).toBe(false);
    expect(p.exchangeTypesSource).toBe('declare');
    expect(p.plugins).toEqual(withMgmt.plugins);
  });

  it('detects an unknown type without harm', async () => {
    expect(await exchangeTypeSupported(url, 'x-no-such-type')).toBe(false);
    expect(await exchangeTypeSupported(url, 'topic')).toBe(true);
  });
});
