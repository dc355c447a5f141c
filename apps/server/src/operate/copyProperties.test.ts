import { describe, expect, it } from 'vitest';
import type { Options } from 'amqplib';
import { REDRIVE_AT_HEADER, REDRIVE_COUNT_HEADER } from '@retry-studio/topology-core/operate';
import { amqpDefs } from '../broker/amqplibInternals.js';
import { encodePropertyList, withHeaderEntries, type PropertyList } from '../broker/publishFrames.js';
import { RawDelivery } from '../broker/rawDeliveries.js';
import { copyProperties, copyPropertyList } from './copyProperties.js';
import { deadLetterFromAmqp } from './deadLetterFromAmqp.js';
import { wireXDeath } from '../testing/wireFixtures.js';

const NOW = 1_764_000_000_123;
const fields = { consumerTag: 'c', deliveryTag: 1, redelivered: false, exchange: '', routingKey: 'dlq' };
const delivered = (props: Options.Publish): RawDelivery =>
  new RawDelivery(fields, encodePropertyList(props), Buffer.from('body'));
const bytes = (p: PropertyList): Buffer => (p.headerEntries ? withHeaderEntries(p.base, p.headerEntries) : p.base);
const decoded = (p: PropertyList): Record<string, unknown> =>
  amqpDefs.decode(amqpDefs.BasicProperties, bytes(p)) as Record<string, unknown>;
/** the copy's list as the decode-and-encode path makes it */
const slow = (m: RawDelivery): Buffer =>
  encodePropertyList(copyProperties(m, 'guest', deadLetterFromAmqp(m, 0).headers, NOW));

describe('copyPropertyList', () => {
  const xDeath = [wireXDeath('q', 'rejected', 'x', ['k'])];

  it('forwards the original bytes with the marker added, exactly what decoding and encoding again would give', () => {
    for (const props of [
      {},
      { deliveryMode: 2, contentType: 'application/json' },
      { headers: { 'x-death': xDeath, 'x-exception': 'e' }, messageId: 'm' },
    ] as Options.Publish[]) {
      const m = delivered(props);
      let asked = 0;
      const list = copyPropertyList(m, 'guest', () => (asked++, {}), NOW);
      expect(asked).toBe(0); // nothing was decoded
      expect(list.base).toBe(m.rawProperties); // forwarded, not copied
      expect(bytes(list).equals(slow(m))).toBe(true);
      expect(decoded(list).headers).toMatchObject({ [REDRIVE_COUNT_HEADER]: 1, [REDRIVE_AT_HEADER]: NOW });
    }
  });

  it('counts on from an earlier re-drive, and replaces its time', () => {
    const m = delivered({ headers: { [REDRIVE_COUNT_HEADER]: 2, [REDRIVE_AT_HEADER]: 5 } });
    const headers = decoded(copyPropertyList(m, 'guest', () => deadLetterFromAmqp(m, 0).headers, NOW))
      .headers as Record<string, unknown>;
    expect(headers).toEqual({ [REDRIVE_COUNT_HEADER]: 3, [REDRIVE_AT_HEADER]: NOW });
  });

  it("drops a user-id that is not the connection's user (the broker would refuse it) and the cluster-id, keeps its own user's", () => {
    const other = decoded(
      copyPropertyList(
        delivered({ userId: 'alice', clusterId: 'c1', messageId: 'm' } as Options.Publish),
        'guest',
        () => ({}),
        NOW,
      ),
    );
    expect(other.userId).toBeUndefined();
    expect(other.clusterId).toBeUndefined();
    expect(other.messageId).toBe('m');
    expect(decoded(copyPropertyList(delivered({ userId: 'guest' }), 'guest', () => ({}), NOW)).userId).toBe('guest');
  });
});
