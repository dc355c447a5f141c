/**
 * Assumed publishers (the producer lives in another application): one for every binding into a
 * consumer's queue that no publisher already routes through, with a key that binding matches
 * (`one.*` -> `one.x`), so every consumer's journey is shown.
 */
import type { BindingDef, ExchangeDef } from '../../model/definitions.js';
import type { ConsumerSpec } from '../../model/consumer.js';
import type { PublisherSpec } from '../../model/publisher.js';
import { sampleTopicKey, topicMatches } from '../../routing/topicMatcher.js';

function routes(type: ExchangeDef['type'] | undefined, bindingKey: string, routingKey: string): boolean {
  if (type === 'topic') return topicMatches(bindingKey, routingKey);
  if (type === 'fanout' || type === 'headers') return true;
  return bindingKey === routingKey;
}

/**
 * `each`: a publisher through every binding into the queue (each binding pattern is an entry, as
 * Spring Cloud Stream's binding-routing-key list); otherwise one only where no publisher reaches
 * the queue at all, through its first binding (the others are the framework's own, such as a
 * delay exchange's way back).
 */
export function publishersReaching(
  consumers: readonly Pick<ConsumerSpec, 'queue'>[],
  exchanges: readonly ExchangeDef[],
  bindings: readonly BindingDef[],
  existing: readonly PublisherSpec[],
  each = true,
): PublisherSpec[] {
  const out: PublisherSpec[] = [];
  const ids = new Set(existing.map((p) => p.id));
  const reaches = (b: BindingDef): boolean => {
    const type = exchanges.find((x) => x.name === b.source)?.type;
    return [...existing, ...out].some((p) => p.exchange === b.source && routes(type, b.routing_key, p.routingKey));
  };
  for (const c of consumers) {
    const into = bindings.filter((b) => b.destination === c.queue && b.destination_type === 'queue');
    if (!each && (into.some(reaches) || existing.some((p) => p.exchange === '' && p.routingKey === c.queue))) continue;
    for (const b of each ? into : into.slice(0, 1)) {
      const type = exchanges.find((x) => x.name === b.source)?.type;
      if (reaches(b)) continue;
      const key = type === 'topic' ? (b.routing_key === '#' ? b.source : sampleTopicKey(b.routing_key)) : b.routing_key;
      let id = `publish-${b.source}`;
      if (ids.has(id)) id = `publish-${b.source}-${key}`;
      for (let n = 2; ids.has(id); n++) id = `publish-${b.source}-${key}-${n}`;
      ids.add(id);
      out.push({ id, exchange: b.source, routingKey: key, bodyPrefix: b.source });
    }
  }
  return out;
}
