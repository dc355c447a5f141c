/**
 * A definitions file opened in the designer gets the consumers and publishers its topology implies,
 * as a vhost imported from a live broker does (the core's designFromBroker: a worker per work queue,
 * a publisher per way into every entry exchange). A file carries no consumers or publishers, so
 * Simulate had nothing to publish with ("Add a publisher") right after the import.
 */
import { designFromBroker, type Design } from '@retry-studio/topology-core';

export function scaffoldFileImport(design: Design): Design {
  if (design.consumers.length > 0 || design.publishers.length > 0) return design;
  const t = design.topology;
  const r = designFromBroker(
    {
      // the version only picks a profile, which the design already has
      rabbitVersion: '3.10.0',
      vhost: design.vhost ?? '/',
      exchanges: t.exchanges,
      queues: t.queues.map((q) => ({ name: q.name, arguments: q.arguments ?? {} })),
      bindings: t.bindings,
      ...(t.policies ? { policies: t.policies } : {}),
    },
    { layout: false },
  );
  // the file's own topology stays as read; only the actors are added
  return r.ok ? { ...design, consumers: r.design.consumers, publishers: r.design.publishers } : design;
}
