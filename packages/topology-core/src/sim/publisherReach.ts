/**
 * What one publisher's messages can reach, routing key by routing key: from its exchange through the
 * bindings whose key matches (direct: equal, topic: the pattern matches, fanout: all), exchange to
 * exchange, alternate exchanges, dead-letter exchanges (with the dead-letter routing key, else the
 * key the message carries), the consumers of a reached queue and where they republish. A key not
 * known from the design (a republish taking one from a header) matches every binding. Anything this
 * walk does not read exactly (another exchange type, CC/BCC headers, the default exchange with an
 * unknown key, a walk too long) gives undefined: the caller keeps the publisher's whole part
 * (designParts.ts). An imported 10,000-queue vhost has 5,000 publishers into four topic exchanges:
 * a part per team is 2,500 queues, a reach three.
 */
import type { Design } from '../model/design.js';
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { alternateExchangeOf } from '../model/effectiveSettings.js';
import { builtinExchangeType } from '../model/definitions.js';
import { republishSites } from '../model/republishes.js';
import { topicWords, topicWordsMatch } from '../routing/topicMatcher.js';
import { queueConfig } from './queueConfig.js';
import { profileFor } from './profiles.js';

/** a key known only at run time */
const ANY = '\u0000any';
const MAX_STEPS = 20_000;

export interface Reach {
  readonly queues: ReadonlySet<string>;
  readonly exchanges: ReadonlySet<string>;
  /** indices into the topology's bindings that some key reaching their source matches */
  readonly bindings: ReadonlySet<number>;
}

const hasCc = (h: unknown): boolean => typeof h === 'object' && h !== null && ('CC' in h || 'BCC' in h);

/** the design read once; `reachOf(i)` walks publisher i */
export function publisherReach(design: Design): (publisher: number) => Reach | undefined {
  const t = design.topology;
  const exchanges = new Map<string, ExchangeDef>(t.exchanges.map((x) => [x.name, x]));
  const queues = new Map<string, QueueDef>(t.queues.map((q) => [q.name, q]));
  const bySource = new Map<string, { b: BindingDef; at: number; words: readonly string[] }[]>();
  t.bindings.forEach((b, at) => {
    let l = bySource.get(b.source);
    if (!l) bySource.set(b.source, (l = []));
    l.push({ b, at, words: topicWords(b.routing_key ?? '') });
  });
  const consumersOf = new Map<string, ConsumerSpec[]>();
  for (const c of design.consumers) {
    let l = consumersOf.get(c.queue);
    if (!l) consumersOf.set(c.queue, (l = []));
    l.push(c);
  }
  const profile = profileFor(design.profile);
  const dl = new Map<string, { dlx: string | undefined; dlrk: string | undefined }>();
  const deadLetterOf = (q: QueueDef) => {
    let d = dl.get(q.name);
    if (!d) {
      const cfg = queueConfig(q, t.policies, profile, undefined, t.policyPins);
      d = { dlx: cfg.dlx, dlrk: cfg.dlrk };
      dl.set(q.name, d);
    }
    return d;
  };

  return (i) => {
    const p = design.publishers[i];
    if (!p || hasCc(p.properties?.headers)) return undefined;
    const reachedQ = new Set<string>();
    const reachedX = new Set<string>();
    const usedB = new Set<number>();
    const seen = new Set<string>();
    const work: Array<['x' | 'q', string, string]> = [];
    const push = (kind: 'x' | 'q', name: string, key: string) => {
      const k = `${kind}\u0001${name}\u0001${key}`;
      if (!seen.has(k)) {
        seen.add(k);
        work.push([kind, name, key]);
      }
    };
    push('x', p.exchange, typeof p.routingKey === 'string' ? p.routingKey : ANY);
    for (let steps = 0; work.length; steps++) {
      if (steps > MAX_STEPS) return undefined;
      const [kind, name, key] = work.pop()!;
      if (kind === 'x') {
        if (name === '') {
          // the default exchange: the queue named by the key
          if (key === ANY) return undefined;
          push('q', key, key);
          continue;
        }
        const x = exchanges.get(name);
        // a built-in amq.* exchange routes without being declared: not read here
        if (!x) {
          if (builtinExchangeType(name)) return undefined;
          continue;
        }
        reachedX.add(name);
        // headers: every binding may match (the key is kept); the plugins' types are not read here
        if (x.type !== 'direct' && x.type !== 'topic' && x.type !== 'fanout' && x.type !== 'headers') return undefined;
        const ae = alternateExchangeOf(x, t.policies);
        if (ae !== undefined) push('x', ae, key);
        const words = x.type === 'topic' && key !== ANY ? topicWords(key) : undefined;
        for (const { b, at, words: pattern } of bySource.get(name) ?? []) {
          const match =
            key === ANY ||
            x.type === 'fanout' ||
            x.type === 'headers' ||
            (x.type === 'direct' ? b.routing_key === key : topicWordsMatch(pattern, words!));
          if (!match) continue;
          usedB.add(at);
          push(b.destination_type === 'exchange' ? 'x' : 'q', b.destination, key);
        }
      } else {
        const q = queues.get(name);
        if (!q) continue;
        reachedQ.add(name);
        const d = deadLetterOf(q);
        if (d.dlx !== undefined) push('x', d.dlx, d.dlrk ?? key);
        for (const c of consumersOf.get(name) ?? [])
          for (const s of republishSites(c.behaviour)) {
            if (hasCc(s.action.headers)) return undefined;
            push('x', s.action.exchange, typeof s.action.routingKey === 'string' ? s.action.routingKey : ANY);
          }
      }
    }
    return { queues: reachedQ, exchanges: reachedX, bindings: usedB };
  };
}
