/**
 * Definitions files for the CLI bench, shaped like a real broker's export: per service a work
 * queue dead-lettering to a retry exchange, a TTL wait queue dead-lettering back, and a parking
 * queue, with a policy for the parking queues.
 */
export function servicesDefinitions(services: number): string {
  const exchanges: unknown[] = [];
  const queues: unknown[] = [];
  const bindings: unknown[] = [];
  const x = (name: string, type = 'direct') => ({
    name,
    vhost: '/',
    type,
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
    arguments: { 'x-queue-type': 'quorum', ...args },
  });
  const b = (source: string, destination: string, routing_key: string) => ({
    source,
    vhost: '/',
    destination,
    destination_type: 'queue',
    routing_key,
    arguments: {},
  });
  for (let i = 0; i < services; i++) {
    const s = `svc${i}`;
    exchanges.push(x(`${s}.work`), x(`${s}.retry`), x(`${s}.parking`, 'fanout'));
    queues.push(
      q(`${s}.q`, { 'x-dead-letter-exchange': `${s}.retry`, 'x-delivery-limit': 5 }),
      q(`${s}.wait`, { 'x-message-ttl': 5000, 'x-dead-letter-exchange': `${s}.work` }),
      q(`${s}.dlq`),
    );
    bindings.push(
      b(`${s}.work`, `${s}.q`, `${s}.q`),
      b(`${s}.retry`, `${s}.wait`, `${s}.q`),
      b(`${s}.parking`, `${s}.dlq`, ''),
    );
  }
  const policies = [
    {
      vhost: '/',
      name: 'dlq-ttl',
      pattern: '\\.dlq$',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'message-ttl': 604800000 },
    },
  ];
  return (
    JSON.stringify(
      { rabbit_version: '3.13.7', vhosts: [{ name: '/' }], exchanges, queues, bindings, policies },
      null,
      2,
    ) + '\n'
  );
}
