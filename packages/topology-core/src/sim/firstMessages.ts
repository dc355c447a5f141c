import type { SimEvent } from './events.js';

/**
 * The events of the first `n` messages (in order of first appearance) and those about no message
 * (depth samples). The live trace's page draws only its first messages: the server sends just
 * their predicted events, and the page keeps just their live ones.
 */
export function firstMessages(events: readonly SimEvent[], n: number): SimEvent[] {
  const kept = new Set<string>();
  return events.filter((e) => {
    if (e.msgId === '' || kept.has(e.msgId)) return true;
    if (kept.size >= n) return false;
    kept.add(e.msgId);
    return true;
  });
}
