/**
 * The queues an exchange can route to whatever the key: every binding, exchange-to-exchange
 * bindings followed, and its alternate exchange. What a dead letter with an unknown key may reach
 * (the horizon's dead-letter graph, lint's wait queues).
 */
import type { ExchangeIndex } from './exchangeIndex.js';

export function queuesReachedFrom(index: ExchangeIndex, exchanges: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  const work = [...exchanges];
  while (work.length > 0) {
    const x = index.exchanges.get(work.pop()!);
    if (!x || seen.has(x.name)) continue;
    seen.add(x.name);
    for (const b of x.bindings)
      if (b.dest.kind === 'queue') out.add(b.dest.name);
      else work.push(b.dest.name);
    if (x.alternate !== undefined) work.push(x.alternate);
  }
  return out;
}
