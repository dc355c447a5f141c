/**
 * Every message's journey in a few lines, told once per kind of journey: messages whose stories
 * differ only in the names of the queues and exchanges they went through (one retry shape per
 * service, the usual big file) are one group with a count, their first story and who they are.
 */
import { describeOutcome, type MessageTrace, type OutcomeContext } from '@retry-studio/topology-core/sim';
import { formatMs } from '@retry-studio/topology-core/budget';
import { formatCount, formatRuns } from '@retry-studio/topology-core/text';

/** journeys printed before "... more" (each is a few lines whatever the loop's length) */
export const MAX_JOURNEYS = 20;

/** One message's path, attempts and ending, repetition folded: a few lines however long it looped. */
export function messageStory(t: MessageTrace, said: OutcomeContext): string {
  const path = t.path.length ? formatRuns(t.path, ' -> ') : '(never enqueued)';
  const times =
    t.attemptTimes.length === 0
      ? ''
      : t.attemptTimes.length <= 10
        ? ` at ${t.attemptTimes.map(formatMs).join(', ')}`
        : ` from ${formatMs(t.attemptTimes[0]!)} to ${formatMs(t.attemptTimes[t.attemptTimes.length - 1]!)}, delays ${formatRuns(t.delaysMs.map(formatMs), ', ')}`;
  return `${path}\n    attempts ${formatCount(t.attempts)}${times}; ends: ${describeOutcome(t.outcome, said)}`;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A story with each name replaced by its order of first appearance: equal for copies of one shape. */
function shapeOf(story: string, names: RegExp | undefined): string {
  if (!names) return story;
  const seen = new Map<string, number>();
  return story.replace(names, (n) => {
    let i = seen.get(n);
    if (i === undefined) seen.set(n, (i = seen.size));
    return `\u0000${i}\u0000`;
  });
}

/** The journeys of a run, grouped by shape, as text. */
export function formatJourneys(traces: readonly MessageTrace[], said: OutcomeContext): string {
  const t = said.topology;
  // the topology's names, longest first, whole words only (`orders.q` is not a name inside `orders.q.wait`)
  const all = [...new Set([...t.queues.map((q) => q.name), ...t.exchanges.map((x) => x.name)])]
    .filter((n) => n !== '')
    .sort((a, b) => b.length - a.length);
  const names = all.length ? new RegExp(`(?<![\\w.-])(?:${all.map(escape).join('|')})(?![\\w.-])`, 'g') : undefined;
  const groups = new Map<string, { story: string; bodies: string[]; ownObjects: boolean }>();
  for (const tr of traces) {
    const story = messageStory(tr, said);
    const key = shapeOf(story, names);
    const g = groups.get(key);
    if (!g) groups.set(key, { story, bodies: [tr.body], ownObjects: false });
    else {
      g.bodies.push(tr.body);
      if (story !== g.story) g.ownObjects = true;
    }
  }
  let out = `\nmessages (${traces.length}):\n`;
  let shown = 0;
  for (const { story, bodies, ownObjects } of groups.values()) {
    if (shown++ >= MAX_JOURNEYS) {
      out += `  ... ${groups.size - MAX_JOURNEYS} more kinds of journey (--json lists every message)\n`;
      break;
    }
    const first3 = bodies.length > 3 ? `${bodies.slice(0, 3).join(', ')}, ...` : bodies.join(', ');
    const who =
      bodies.length === 1
        ? bodies[0]!
        : ownObjects
          ? `${bodies.length} messages of one journey, each through its own objects (${first3}); the first`
          : `${bodies.length} messages (${first3})`;
    out += `  ${who}: ${story}\n`;
  }
  return out;
}
