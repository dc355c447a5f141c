/**
 * Big definitions files, in shapes real users have (for the browser's import, layout and overview
 * tests, e2e flows and bench:canvas; `@retry-studio/topology-core/testing/big`). Each returns the
 * file's text, as a file chosen in the browser is read.
 */

interface QueueOut {
  name: string;
  vhost: string;
  durable: true;
  auto_delete: false;
  arguments: Record<string, string | number>;
}
interface BindingOut {
  source: string;
  vhost: string;
  destination: string;
  destination_type: 'queue';
  routing_key: string;
  arguments: Record<string, never>;
}

const exchange = (name: string, type: string) => ({
  name,
  vhost: '/',
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: {},
});
const queue = (name: string, args: Record<string, string | number> = {}): QueueOut => ({
  name,
  vhost: '/',
  durable: true,
  auto_delete: false,
  arguments: args,
});
const binding = (source: string, destination: string, key: string): BindingOut => ({
  source,
  vhost: '/',
  destination,
  destination_type: 'queue',
  routing_key: key,
  arguments: {},
});

const file = (exchanges: unknown[], queues: QueueOut[], bindings: BindingOut[]) =>
  JSON.stringify({ rabbit_version: '3.13.7', vhosts: [{ name: '/' }], queues, exchanges, bindings, policies: [] });

/**
 * Issue 41's file: `groups` retry groups of five queues each, main / wait / retry / dlq / parking,
 * wired by dead-lettering through five shared `app.*` exchanges (a failed message waits out a TTL,
 * comes back through the retry queue, and ends in the DLQ, then parking). Group names are
 * `svc-0001`…: their first segment (`svc`) is the same for all, so grouping by it alone makes one
 * group of 5,000 queues (the overview read "app · 0 queues").
 */
export function retryGroupsDefinitions(groups: number): string {
  const x = ['app.events', 'app.wait', 'app.retry', 'app.dlx', 'app.parking'];
  const exchanges = [exchange(x[0]!, 'topic'), ...x.slice(1).map((n) => exchange(n, 'direct'))];
  const queues: QueueOut[] = [];
  const bindings: BindingOut[] = [];
  for (let i = 1; i <= groups; i++) {
    const g = `svc-${String(i).padStart(4, '0')}`;
    const q = (part: string) => `${g}.${part}`;
    queues.push(
      queue(q('main'), { 'x-dead-letter-exchange': 'app.wait', 'x-dead-letter-routing-key': q('wait') }),
      queue(q('wait'), {
        'x-message-ttl': 5000,
        'x-dead-letter-exchange': 'app.retry',
        'x-dead-letter-routing-key': q('retry'),
      }),
      queue(q('retry'), { 'x-dead-letter-exchange': 'app.dlx', 'x-dead-letter-routing-key': q('dlq') }),
      queue(q('dlq'), {
        'x-message-ttl': 86_400_000,
        'x-dead-letter-exchange': 'app.parking',
        'x-dead-letter-routing-key': q('parking'),
      }),
      queue(q('parking')),
    );
    bindings.push(
      binding('app.events', q('main'), `${g}.#`),
      binding('app.wait', q('wait'), q('wait')),
      binding('app.retry', q('retry'), q('retry')),
      binding('app.dlx', q('dlq'), q('dlq')),
      binding('app.parking', q('parking'), q('parking')),
    );
  }
  return file(exchanges, queues, bindings);
}

/**
 * `queues` queues in 4 teams: work queues dead-letter into their team's DLX, each with a DLQ (long
 * names, one lint finding per DLQ: a length limit with no dead-letter exchange drops the oldest).
 */
export function teamServicesDefinitions(queues: number): string {
  const teams = ['billing', 'shipping', 'catalogue', 'accounting'];
  const exchanges = teams.flatMap((t) => [exchange(`${t}.events`, 'topic'), exchange(`${t}.dlx`, 'direct')]);
  const qs: QueueOut[] = [];
  const bindings: BindingOut[] = [];
  for (let i = 0; qs.length < queues; i++) {
    const t = teams[i % teams.length]!;
    const work = `${t}.service-${i}.documents`;
    qs.push(queue(work, { 'x-dead-letter-exchange': `${t}.dlx`, 'x-dead-letter-routing-key': `${work}.dlq` }));
    bindings.push(binding(`${t}.events`, work, `${t}.${i}.#`));
    if (qs.length < queues) {
      qs.push(queue(`${work}.dlq`, { 'x-max-length': 10000 }));
      bindings.push(binding(`${t}.dlx`, `${work}.dlq`, `${work}.dlq`));
    }
  }
  return file(exchanges, qs, bindings);
}

/**
 * Tenants: `tenants` tenants (`acme-0001`…), each with its own topic exchange and DLX and `perTenant`
 * work queues (`acme-0001.orders.created`…) with a shared DLQ: three name levels, an exchange per tenant.
 */
export function tenantDefinitions(tenants: number, perTenant: number): string {
  const events = ['orders.created', 'orders.paid', 'invoices.sent', 'stock.low', 'users.joined', 'mail.bounced'];
  const exchanges: unknown[] = [];
  const queues: QueueOut[] = [];
  const bindings: BindingOut[] = [];
  for (let i = 1; i <= tenants; i++) {
    const t = `acme-${String(i).padStart(4, '0')}`;
    exchanges.push(exchange(`${t}.events`, 'topic'), exchange(`${t}.dlx`, 'fanout'));
    for (let j = 0; j < perTenant; j++) {
      const e = events[j % events.length]!;
      const name = `${t}.${e}${j >= events.length ? `.${Math.floor(j / events.length)}` : ''}`;
      queues.push(queue(name, { 'x-dead-letter-exchange': `${t}.dlx` }));
      bindings.push(binding(`${t}.events`, name, e));
    }
    queues.push(queue(`${t}.dlq`));
    bindings.push(binding(`${t}.dlx`, `${t}.dlq`, ''));
  }
  return file(exchanges, queues, bindings);
}
