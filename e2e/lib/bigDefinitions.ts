/** A big vhost's definitions file for the canvas flows and bench:canvas. */

/** One vhost of `queues` queues in 4 teams: work queues dead-letter into their team's DLX, each with a DLQ (long names, one rule firing per DLQ). */
export function bigDefinitions(queues: number): string {
  const teams = ['billing', 'shipping', 'catalogue', 'accounting'];
  const exchanges = teams.flatMap((t) => [
    {
      name: `${t}.events`,
      vhost: '/',
      type: 'topic',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    },
    { name: `${t}.dlx`, vhost: '/', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} },
  ]);
  const qs: unknown[] = [];
  const bindings: unknown[] = [];
  for (let i = 0; qs.length < queues; i++) {
    const t = teams[i % teams.length]!;
    const work = `${t}.service-${i}.documents`;
    qs.push({
      name: work,
      vhost: '/',
      durable: true,
      auto_delete: false,
      arguments: { 'x-dead-letter-exchange': `${t}.dlx`, 'x-dead-letter-routing-key': `${work}.dlq` },
    });
    bindings.push({
      source: `${t}.events`,
      vhost: '/',
      destination: work,
      destination_type: 'queue',
      routing_key: `${t}.${i}.#`,
      arguments: {},
    });
    if (qs.length < queues) {
      // a length limit with no dead-letter exchange drops the oldest silently: one lint finding per DLQ (500 of one rule)
      qs.push({
        name: `${work}.dlq`,
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-max-length': 10000 },
      });
      bindings.push({
        source: `${t}.dlx`,
        vhost: '/',
        destination: `${work}.dlq`,
        destination_type: 'queue',
        routing_key: `${work}.dlq`,
        arguments: {},
      });
    }
  }
  return JSON.stringify({
    rabbit_version: '3.13.7',
    vhosts: [{ name: '/' }],
    queues: qs,
    exchanges,
    bindings,
    policies: [],
  });
}
