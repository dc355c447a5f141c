/**
 * Is an outcome what the run's events and its end state show? An acked message was acked by that
 * consumer and is in no queue; a parked one is in its queue when the run ends; a dropped one was
 * dropped for that reason; a moving one belongs to a run that was cut off. Each wrong claim, said.
 */
import type { SimulationResult } from '../sim/types.js';
import type { MessageOutcome } from '../sim/messageOutcome.js';

export function eventTruth(result: SimulationResult, msgId: string, o: MessageOutcome): string[] {
  const events = result.events.filter((e) => e.msgId === msgId);
  const inQueue = (q: string): boolean => (result.final[q] ?? []).some((m) => m.msgId === msgId);
  const anywhere = Object.keys(result.final).filter(inQueue);
  const wrong: string[] = [];
  switch (o.kind) {
    case 'acked':
      if (o.consumer && !events.some((e) => e.kind === 'acked' && e.consumer === o.consumer))
        wrong.push(`no ack by ${o.consumer} in the events`);
      if (anywhere.length) wrong.push(`still in ${anywhere.join(', ')} when the run ended`);
      break;
    case 'discarded':
      if (!events.some((e) => e.kind === 'acked' && e.discarded && e.consumer === o.consumer))
        wrong.push(`no discarding ack by ${o.consumer} in the events`);
      if (anywhere.length) wrong.push(`still in ${anywhere.join(', ')} when the run ended`);
      break;
    case 'parked':
      for (const q of [o.queue, ...(o.also ?? [])]) if (!inQueue(q)) wrong.push(`not in ${q} when the run ended`);
      break;
    case 'dropped':
      if (!events.some((e) => e.kind === 'dropped' && e.why === o.why)) wrong.push(`no drop (${o.why}) in the events`);
      break;
    case 'expired':
      if (!events.some((e) => e.kind === 'expired' && e.queue === o.queue))
        wrong.push(`no expiry in ${o.queue} in the events`);
      break;
    case 'limit':
      if (!events.some((e) => e.kind === 'requeued' && e.queue === o.queue))
        wrong.push(`no return to ${o.queue} in the events`);
      break;
    case 'moving':
      if (!result.truncated) wrong.push('the run was not cut off: nothing was still moving');
      break;
    case 'publish-nacked':
      if (!events.some((e) => e.kind === 'publish-nacked')) wrong.push('no publish nack in the events');
      if (anywhere.length) wrong.push(`still in ${anywhere.join(', ')} when the run ended`);
      break;
    case 'returned':
      if (!events.some((e) => e.kind === 'returned')) wrong.push('no basic.return in the events');
      break;
    case 'held':
      if (!events.some((e) => e.kind === 'delivered' && e.consumer === o.consumer))
        wrong.push(`never delivered to ${o.consumer}`);
      break;
  }
  return wrong;
}
