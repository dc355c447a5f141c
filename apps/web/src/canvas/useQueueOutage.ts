/**
 * Whether a queue is unavailable at the player's virtual time, in the last simulation's "node
 * down" (simSlice.simOutages). Without a node loss nothing subscribes to the player, so the
 * canvas costs nothing extra; with one, the queue re-renders on the player's throttled tick.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useApp } from '../store/store';
import { player } from '../sim/player';
import type { QueueOutage } from '../sim/nodeLossWhatIf';

const NONE = (): (() => void) => () => undefined;

/** the queue's outage while the clock is inside it, else undefined */
export function useQueueOutage(queue: string): QueueOutage | undefined {
  const outage = useApp((s) => s.simOutages.find((o) => o.queue === queue));
  const subscribe = useCallback((l: () => void) => (outage ? player.subscribe(l) : NONE()), [outage]);
  const inside = useSyncExternalStore(subscribe, () =>
    outage ? player.virtualNow >= outage.fromMs && player.virtualNow < outage.untilMs : false,
  );
  return inside ? outage : undefined;
}
