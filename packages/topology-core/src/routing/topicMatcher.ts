/**
 * Topic exchange matching as rabbit_exchange_type_topic does it (srv@v3.10.8 L98-121, L256-266):
 * keys split on '.', `""` is zero words, empty words are real words ("a..b" = a,"",b);
 * `*` is exactly one word, `#` zero or more, both only as whole words.
 */

/** words of a routing or binding key; `""` has none */
export function topicWords(key: string): string[] {
  return key === '' ? [] : key.split('.');
}

function matchFrom(p: readonly string[], pi: number, k: readonly string[], ki: number): boolean {
  while (pi < p.length) {
    const w = p[pi];
    if (w === '#') {
      // collapse consecutive '#': they match the same thing as one
      while (pi + 1 < p.length && p[pi + 1] === '#') pi++;
      if (pi + 1 === p.length) return true;
      for (let j = ki; j <= k.length; j++) if (matchFrom(p, pi + 1, k, j)) return true;
      return false;
    }
    if (ki >= k.length) return false;
    if (w !== '*' && w !== k[ki]) return false;
    pi++;
    ki++;
  }
  return ki === k.length;
}

/** pattern and key already split with topicWords */
export function topicWordsMatch(pattern: readonly string[], key: readonly string[]): boolean {
  return matchFrom(pattern, 0, key, 0);
}

/** keys split once: lint matches every key arriving at a topic exchange against each of its bindings (1,250 x 1,250 on a big vhost) */
const split = new Map<string, readonly string[]>();
function wordsOf(key: string): readonly string[] {
  let w = split.get(key);
  if (w === undefined) {
    if (split.size >= 50_000) split.clear();
    w = topicWords(key);
    split.set(key, w);
  }
  return w;
}

export function topicMatches(bindingKey: string, routingKey: string): boolean {
  return topicWordsMatch(wordsOf(bindingKey), wordsOf(routingKey));
}

/** A routing key a topic binding pattern matches: `*` as one word (`x`), `#` as none (`a.*.#` -> `a.x`). */
export function sampleTopicKey(pattern: string): string {
  return pattern
    .split('.')
    .filter((w) => w !== '#')
    .map((w) => (w === '*' ? 'x' : w))
    .join('.');
}
