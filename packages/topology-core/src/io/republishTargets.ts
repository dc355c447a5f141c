/** Where a consumer republishes to, as the exporters list its publications (the walk is model/republishes.ts). */
import type { ConsumerSpec } from '../model/consumer.js';
import { republishSites, type RepublishSlot } from '../model/republishes.js';

export interface RepublishTarget {
  readonly slot: RepublishSlot;
  readonly exchange: string;
  readonly routingKey?: string;
}

export function republishTargets(c: ConsumerSpec): readonly RepublishTarget[] {
  return republishSites(c.behaviour).map(({ slot, action: a }) => ({
    slot,
    exchange: a.exchange,
    ...(a.routingKey !== undefined ? { routingKey: a.routingKey } : {}),
  }));
}

/** A short stable suffix for the publication's name: `1` for rule 1 (as before), `success`, `action-2`. */
export function republishSlotSuffix(slot: RepublishSlot): string {
  return slot.kind === 'rule'
    ? String(slot.index + 1)
    : slot.kind === 'onSuccess'
      ? 'success'
      : `action-${slot.index + 1}`;
}

/** "a failed message (rule 1)", "a processed message", "a message (action 2)" */
export function republishSlotWhat(slot: RepublishSlot): string {
  return slot.kind === 'rule'
    ? `a failed message (rule ${slot.index + 1})`
    : slot.kind === 'onSuccess'
      ? 'a processed message'
      : `a message (action ${slot.index + 1})`;
}
