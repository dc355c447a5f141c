import { describe, expect, it } from 'vitest';
import { topicMatches, topicWords, sampleTopicKey } from './topicMatcher.js';

// srv@v3.10.8 rabbit_exchange_type_topic.erl L98-121, L256-266; test table from
// unit_access_control_SUITE.erl L312-380 (rabbitmq-semantics.md §3, §6 item 46)
const BINDINGS = [
  'a.b.c',
  'a.*.c',
  'a.#.b',
  '#',
  '#.#',
  '*.*',
  '',
  '*',
  '#.b.#',
  '*.#',
  '#.*.#',
  'a.#',
  '#.b',
  '#.#.#',
  'a*',
];
const matching = (key: string): string[] => BINDINGS.filter((b) => topicMatches(b, key));

describe('topic matching', () => {
  it('splits "" into zero words and keeps empty words', () => {
    expect(topicWords('')).toEqual([]);
    expect(topicWords('a.')).toEqual(['a', '']);
    expect(topicWords('a..b')).toEqual(['a', '', 'b']);
  });

  it('"" matches #, #.#, #.#.# and "" but not *', () => {
    expect(matching('')).toEqual(['#', '#.#', '', '#.#.#']);
  });

  it('a.b matches a.#.b, #.b, *.*, a.#, #.b.#', () => {
    expect(matching('a.b')).toEqual(['a.#.b', '#', '#.#', '*.*', '#.b.#', '*.#', '#.*.#', 'a.#', '#.b', '#.#.#']);
  });

  it('oneword matches *, *.#, #.*.#', () => {
    expect(matching('oneword')).toEqual(['#', '#.#', '*', '*.#', '#.*.#', '#.#.#']);
  });

  it('* matches an empty word; a* is a literal word', () => {
    expect(topicMatches('a.*.b', 'a..b')).toBe(true);
    expect(topicMatches('*', 'a.')).toBe(false);
    expect(topicMatches('a.*', 'a.')).toBe(true);
    expect(topicMatches('a*', 'ab')).toBe(false);
    expect(topicMatches('a*', 'a*')).toBe(true);
    expect(topicMatches('a.b.c', 'a.b.c')).toBe(true);
    expect(topicMatches('a.*.c', 'a.b.b.c')).toBe(false);
    expect(topicMatches('a.#.c', 'a.b.b.c')).toBe(true);
  });
});

describe('sampleTopicKey', () => {
  it('gives a key the pattern matches', () => {
    for (const p of ['a.*.#', 'orders.#', '*.created', '#', 'plain.key'])
      expect(topicMatches(p, sampleTopicKey(p))).toBe(true);
    expect(sampleTopicKey('a.*.#')).toBe('a.x');
  });
});
