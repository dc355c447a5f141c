/**
 * A design cut into its unconnected parts: one message can only ever reach the objects linked to
 * where it was published. Two objects are in one part when anything names one from the other:
 * every reference `mapReferences` walks (bindings, dead-letter and alternate exchanges, routing keys
 * that name a queue, consumers and their republishes, publishers, naming headers), and a policy
 * that names an exchange joins it with everything its pattern matches. A run of one publisher on
 * its part alone is the run on the whole design, without building thousands of unrelated queues:
 * a 5,000-node design of 715 loops linted one simulation of the whole design per publisher (O(n²)).
 */
import type { Design } from '../model/design.js';
import type { Topology } from '../model/definitions.js';
import { mapReferences } from '../model/references.js';
import { policyPattern } from '../model/policyMatch.js';
import { publisherReach } from './publisherReach.js';

const OWNER = /^(topology\.(queues|exchanges|bindings|policies)|consumers|publishers)\[(\d+)\]/;

class Joins {
  private readonly up = new Map<string, string>();
  root(k: string): string {
    let r = k;
    for (let p = this.up.get(r); p !== undefined && p !== r; p = this.up.get(r)) r = p;
    for (let c = k; c !== r;) {
      const p = this.up.get(c)!;
      this.up.set(c, r);
      c = p;
    }
    return r;
  }
  join(a: string, b: string): void {
    const ra = this.root(a);
    const rb = this.root(b);
    if (ra !== rb) this.up.set(ra, rb);
  }
}

/** publisher index -> the design with only that publisher and the objects of its part */
export function designParts(design: Design): (publisher: number) => Design {
  const t = design.topology;
  const j = new Joins();
  const ownerKey = (path: string): string | undefined => {
    const m = OWNER.exec(path);
    if (!m) return undefined;
    const i = Number(m[3]);
    if (m[2] === 'queues') return `q:${t.queues[i]?.name}`;
    if (m[2] === 'exchanges') return `x:${t.exchanges[i]?.name}`;
    return `${m[2] ?? m[1]}:${i}`;
  };
  const policyRefs = new Map<number, string[]>();
  mapReferences(design, (r) => {
    // canvas positions and where nodes came from name objects but carry no message
    if (/^(layout|sources)\[/.test(r.path)) return r.name;
    const to = `${r.target === 'queue' ? 'q' : 'x'}:${r.name}`;
    const owner = ownerKey(r.path);
    // a reference from a place this walk does not know: everything is one part (never wrong, only slower)
    j.join(owner ?? 'everything', to);
    const pol = /^topology\.policies\[(\d+)\]/.exec(r.path);
    if (pol && r.kind !== 'pattern') policyRefs.set(Number(pol[1]), [...(policyRefs.get(Number(pol[1])) ?? []), to]);
    return r.name;
  });
  for (const [i, refs] of policyRefs) {
    const re = policyPattern(t.policies?.[i]?.pattern ?? '');
    const matched = re
      ? [...t.queues.map((q) => `q:${q.name}`), ...t.exchanges.map((x) => `x:${x.name}`)].filter((k) =>
          re.test(k.slice(2)),
        )
      : [];
    for (const k of matched) j.join(refs[0]!, k);
  }
  // the objects of each part, grouped once: a publisher's design is then as big as its part
  interface Part {
    queues: Topology['queues'][number][];
    exchanges: Topology['exchanges'][number][];
    bindings: Topology['bindings'][number][];
    consumers: Design['consumers'][number][];
  }
  const parts = new Map<string, Part>();
  const part = (k: string): Part => {
    const r = j.root(k);
    let p = parts.get(r);
    if (!p) parts.set(r, (p = { queues: [], exchanges: [], bindings: [], consumers: [] }));
    return p;
  };
  for (const q of t.queues) part(`q:${q.name}`).queues.push(q);
  for (const x of t.exchanges) part(`x:${x.name}`).exchanges.push(x);
  t.bindings.forEach((b, i) => part(`bindings:${i}`).bindings.push(b));
  design.consumers.forEach((c, i) => part(`consumers:${i}`).consumers.push(c));
  const everything = j.root('everything');
  const reachOf = publisherReach(design);
  const indexBy = <T>(all: readonly T[], key: (x: T) => string): Map<string, number[]> => {
    const m = new Map<string, number[]>();
    all.forEach((x, k) => {
      const l = m.get(key(x));
      if (l) l.push(k);
      else m.set(key(x), [k]);
    });
    return m;
  };
  const queueAt = indexBy(t.queues, (q) => q.name);
  const exchangeAt = indexBy(t.exchanges, (x) => x.name);
  const consumersOn = indexBy(design.consumers, (c) => c.queue);
  return (i) => {
    const p = design.publishers[i]!;
    // narrower still: what its messages can reach, key by key (publisherReach.ts), when that can be read
    const reach = reachOf(i);
    if (reach) {
      // in the design's order (routing and delivery follow it), picked by index: no pass over the whole design per publisher
      const pick = <T>(all: readonly T[], at: number[]): T[] => at.sort((a, b) => a - b).map((k) => all[k]!);
      const qs = [...reach.queues].flatMap((n) => queueAt.get(n) ?? []);
      const xs = [...reach.exchanges].flatMap((n) => exchangeAt.get(n) ?? []);
      // the bindings some arriving key matches: one that none matches routes nothing in this run
      const bs = [...reach.bindings];
      const cs = [...reach.queues].flatMap((n) => consumersOn.get(n) ?? []);
      return {
        ...design,
        topology: {
          ...t,
          queues: pick(t.queues, qs),
          exchanges: pick(t.exchanges, xs),
          bindings: pick(t.bindings, bs),
        },
        consumers: pick(design.consumers, cs),
        publishers: [p],
      };
    }
    const r = j.root(`publishers:${i}`);
    if (r === everything) return { ...design, publishers: [p] };
    const own = parts.get(r) ?? { queues: [], exchanges: [], bindings: [], consumers: [] };
    return {
      ...design,
      topology: { ...t, queues: own.queues, exchanges: own.exchanges, bindings: own.bindings },
      consumers: own.consumers,
      publishers: [p],
    };
  };
}
