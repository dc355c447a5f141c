/**
 * The fate of a message can change only where one of its attempts crosses the start or end of an
 * outage. One message that fails everywhere, alone, shows when each attempt happens after its
 * publish (a message that succeeds at attempt j took the same path up to j); an arrival at
 * `start - offset` or `end - offset` is where a fate can change. Cohorts never straddle one.
 */
import type { Design } from '../model/design.js';
import { Simulator } from '../sim/simulator.js';
import type { ResolvedLoad } from './resolveLoad.js';
import { publishStep, rehearsalInput } from './simInput.js';

/** enough attempts for any retry topology a person would run; an endless retry is cut here */
const PROBE_MAX_EVENTS = 50_000;

/** attempt offsets (ms after publish) per consumer, for an alone, always failing message */
export function attemptOffsets(design: Design, r: ResolvedLoad): Map<string, number[]> {
  const offsets = new Map<string, Set<number>>();
  const input = rehearsalInput(design, r, [publishStep(r, '1')], {
    failureSchedule: () => false,
    onEvent: (e) => {
      if (e.kind !== 'processed') return;
      let set = offsets.get(e.consumer);
      if (!set) offsets.set(e.consumer, (set = new Set()));
      set.add(e.t);
    },
    maxTimeMs: r.load.durationMs + r.afterMs,
    maxEvents: PROBE_MAX_EVENTS,
  });
  new Simulator(input).run();
  const out = new Map<string, number[]>();
  for (const [c, set] of offsets)
    out.set(
      c,
      [...set].sort((a, b) => a - b),
    );
  return out;
}

/** arrival instants where a message's fate can change (sorted, unique) */
export function fateBreakpoints(r: ResolvedLoad, offsets: ReadonlyMap<string, readonly number[]>): number[] {
  const points = new Set<number>();
  for (const [id, c] of r.consumers) {
    const offs = offsets.get(id);
    if (!offs) continue;
    for (const o of c.consumerOutages)
      for (const d of offs) {
        points.add(o.startMs - d);
        points.add(o.endMs - d);
      }
  }
  return [...points].sort((a, b) => a - b);
}
