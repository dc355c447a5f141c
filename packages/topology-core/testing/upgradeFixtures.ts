/**
 * Fixture builders for the upgrade tests (and the server's integration tests): each design holds
 * one of the differences listed in issue 22, built from the simulator's builders.
 */
import type { BrokerProfileId, Design } from '../src/model/design.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from '../src/model/design.js';
import type { ConsumerSpec } from '../src/model/consumer.js';
import type { Topology } from '../src/model/definitions.js';
import { T } from './builders.js';

export function designOf(
  name: string,
  topology: Topology,
  consumers: ConsumerSpec[] = [],
  publishers: Design['publishers'] = [],
  profile: BrokerProfileId = '3.10',
): Design {
  return { format: DESIGN_FORMAT, version: DESIGN_VERSION, name, profile, topology, consumers, publishers };
}

const worker = (
  id: string,
  queue: string,
  onFailure: Extract<ConsumerSpec['behaviour'], { kind: 'worker' }>['onFailure'],
): ConsumerSpec => ({
  id,
  queue,
  behaviour: { kind: 'worker', onFailure },
});
const pub = (exchange: string, routingKey: string): Design['publishers'][number] => ({
  id: `to-${exchange}`,
  exchange,
  routingKey,
  bodyPrefix: exchange,
});

/** A 3.13-style export: mirroring policy, CQv1, master locator, lazy, transient, a quorum queue without a limit, a delayed-message exchange. */
export function legacyDeclarations(p = 'legacy'): Topology {
  return T.topology(
    T.exchange(p),
    T.exchange(`${p}.dlx`, 'fanout'),
    T.exchange(`${p}.delay`, 'x-delayed-message', { delayedType: 'direct' }),
    T.queue(`${p}.q`, { quorum: true, dlx: `${p}.dlx` }),
    T.queue(`${p}.dlq`, { args: { 'x-queue-version': 1, 'x-queue-mode': 'lazy' } }),
    T.queue(`${p}.located`, { args: { 'x-queue-master-locator': 'min-masters' } }),
    { name: `${p}.tmp`, durable: false, auto_delete: false, arguments: {} },
    T.bind(p, `${p}.q`, 'k'),
    T.bind(`${p}.dlx`, `${p}.dlq`),
    T.bind(`${p}.delay`, `${p}.q`, 'k'),
    T.policy(`${p}.ha`, `^${p}\\.(dlq|located|tmp)$`, { 'ha-mode': 'all', 'ha-sync-mode': 'automatic' }),
  );
}

/** quorum-delivery-limit: a quorum queue with x-delivery-limit 2 and a DLX, the worker answers basic.nack requeue. */
export function nackDeliveryLimit(p = 'jobs'): Design {
  return designOf(
    p,
    T.topology(
      T.exchange(p),
      T.exchange(`${p}.dlx`, 'fanout'),
      T.queue(`${p}.q`, { quorum: true, deliveryLimit: 2, dlx: `${p}.dlx` }),
      T.queue(`${p}.dlq`),
      T.bind(p, `${p}.q`, 'k'),
      T.bind(`${p}.dlx`, `${p}.dlq`),
    ),
    [worker('worker', `${p}.q`, [{ then: { kind: 'requeue' } }])],
    [pub(p, 'k')],
  );
}

/** A quorum queue with no delivery limit, the worker requeues (basic.reject): 3.x retries forever, 4.x dead-letters after 20 returns. */
export function quorumNoLimit(p = 'billing'): Design {
  return designOf(
    p,
    T.topology(
      T.exchange(p),
      T.exchange(`${p}.dlx`, 'fanout'),
      T.queue(`${p}.q`, { quorum: true, dlx: `${p}.dlx` }),
      T.queue(`${p}.dlq`),
      T.bind(p, `${p}.q`, 'k'),
      T.bind(`${p}.dlx`, `${p}.dlq`),
    ),
    [worker('worker', `${p}.q`, [{ then: { kind: 'requeue', via: 'reject' } }])],
    [pub(p, 'k')],
  );
}

/**
 * republish-xdeath-count-continues as a design: the worker rejects into a retry queue whose consumer
 * republishes to the work exchange (headers kept) until x-death counts 3 rejections, then parks.
 */
export function republishCountsXDeath(p = 'mail'): Design {
  const q = `${p}.q`;
  return designOf(
    p,
    T.topology(
      T.exchange(p),
      T.exchange(`${p}.retry`, 'fanout'),
      T.queue(q, { dlx: `${p}.retry` }),
      T.queue(`${p}.retry.q`),
      T.queue(`${p}.parking`),
      T.bind(p, q, 'k'),
      T.bind(`${p}.retry`, `${p}.retry.q`),
    ),
    [
      worker('worker', q, [{ then: { kind: 'reject' } }]),
      {
        id: 'retrier',
        queue: `${p}.retry.q`,
        behaviour: {
          kind: 'router',
          rules: [
            {
              when: { kind: 'lt', counter: { kind: 'deathCount', queue: q, reason: 'rejected' }, value: 3 },
              then: { kind: 'republish', exchange: p, routingKey: 'k' },
            },
            { then: { kind: 'republish', exchange: '', routingKey: `${p}.parking` } },
          ],
        },
      },
    ],
    [pub(p, 'k')],
  );
}

/** 4.3 quorum delayed retry (the recorded quorum-delayed-retry-reject-requeue): reject requeue, limit 3, DLX. */
export function quorumDelayedRetry(p = 'sms'): Design {
  return designOf(
    p,
    T.topology(
      T.exchange(p),
      T.exchange(`${p}.dlx`, 'fanout'),
      T.queue(`${p}.q`, {
        quorum: true,
        deliveryLimit: 3,
        dlx: `${p}.dlx`,
        args: { 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': 200, 'x-delayed-retry-max': 500 },
      }),
      T.queue(`${p}.dlq`),
      T.bind(p, `${p}.q`, 'k'),
      T.bind(`${p}.dlx`, `${p}.dlq`),
    ),
    [worker('worker', `${p}.q`, [{ then: { kind: 'requeue', via: 'reject' } }])],
    [pub(p, 'k')],
    '4.3',
  );
}

/** Nanit option 4: republish to a delayed-message exchange with x-retries and x-delay (doubling), park after 3. */
export function delayedExchangeRetry(p = 'orders'): Design {
  const q = `${p}.q`;
  return designOf(
    p,
    T.topology(
      T.exchange(p),
      T.exchange(`${p}.retry`, 'x-delayed-message', { delayedType: 'direct' }),
      T.queue(q),
      T.queue(`${p}.parking`),
      T.bind(p, q, 'task'),
      T.bind(`${p}.retry`, q, q),
    ),
    [
      worker('worker', q, [
        {
          when: { kind: 'lt', counter: { kind: 'header', name: 'x-retries' }, value: 3 },
          then: {
            kind: 'republish',
            exchange: `${p}.retry`,
            routingKey: q,
            headers: {
              'x-retries': { kind: 'counter', by: { kind: 'header', name: 'x-retries' }, add: 1 },
              'x-delay': { kind: 'exponential', initialMs: 1000, multiplier: 2, maxMs: 4000, by: { kind: 'attempt' } },
            },
          },
        },
        { then: { kind: 'republish', exchange: '', routingKey: `${p}.parking` } },
      ]),
    ],
    [pub(p, 'task')],
  );
}

/**
 * `n` copies of one retry shape side by side (a template applied per service, as big files are
 * made): `make(prefix)` builds one copy; consumer and publisher ids get the copy's prefix.
 */
export function copiesOf(make: (prefix: string) => Design, n: number, opts: { bare?: boolean } = {}): Design {
  const copies = Array.from({ length: n }, (_, i) => {
    const p = `svc${i}`;
    const d = make(p);
    return {
      ...d,
      consumers: d.consumers.map((c) => ({ ...c, id: `${p}:${c.id}` })),
      publishers: d.publishers.map((x) => ({ ...x, id: `${p}:${x.id}` })),
    };
  });
  const first = copies[0]!;
  return designOf(
    `${n} copies of ${first.name}`,
    {
      exchanges: copies.flatMap((d) => d.topology.exchanges),
      queues: copies.flatMap((d) => d.topology.queues),
      bindings: copies.flatMap((d) => d.topology.bindings),
      policies: copies.flatMap((d) => d.topology.policies ?? []),
    },
    opts.bare ? [] : copies.flatMap((d) => d.consumers),
    opts.bare ? [] : copies.flatMap((d) => d.publishers),
    first.profile,
  );
}
