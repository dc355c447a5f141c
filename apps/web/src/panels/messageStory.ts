/** Per-message summaries of an event stream, for the timeline lanes and the message inspector. */
import type { XDeathEntry, AmqpTable } from '@retry-studio/topology-core/model';
import { outcomeTone, type SimEvent, type SimEventOf } from '@retry-studio/topology-core/sim';
import type { StatedOutcome } from '../sim/runSimulation';

export interface Wait {
  queue: string;
  from: number;
  to: number;
  ttl: boolean;
}

export interface Story {
  msgId: string;
  body: string;
  events: SimEvent[];
  waits: Wait[];
  attempts: Array<{ t: number; ok: boolean; consumer: string }>;
  /** hops worth a mark: dead-letterings, republishes, delayed-exchange holds, drops */
  hops: Array<{ t: number; kind: 'dead-letter' | 'republish' | 'delayed' | 'dropped'; text: string }>;
  end: number;
  /** the core's outcome in its words (simulated: the run's; live: read from its events, sim/eventOutcomes.ts); empty while none is stated */
  fate: string;
  tone: 'ok' | 'loss' | 'rest' | 'open';
  headers: AmqpTable;
  /** as of its last dead-lettering or delivery, whichever came last: a parked dead letter shows the x-death it carries */
  xDeath: readonly XDeathEntry[];
}

/**
 * `outcomes`: the core's outcomes (runSimulation: a simulated run's, or a live trace's read from its events):
 * each story states the core's, never a reading of its own (a lane that said "acked" where the core said "discarded").
 */
export function storiesOf(events: readonly SimEvent[], outcomes: Readonly<Record<string, StatedOutcome>>): Story[] {
  const by = new Map<string, Story>();
  const open = new Map<string, { queue: string; from: number; ttl: boolean }>();
  const out: Story[] = [];
  for (const e of events) {
    if (e.msgId === '') continue; // depth samples and other message-less events
    let s = by.get(e.msgId);
    if (!s) {
      s = {
        msgId: e.msgId,
        body: e.body,
        events: [],
        waits: [],
        attempts: [],
        hops: [],
        end: e.t,
        fate: '',
        tone: 'open',
        headers: {},
        xDeath: [],
      };
      by.set(e.msgId, s);
      out.push(s);
    }
    s.events.push(e);
    s.end = Math.max(s.end, e.t);
    const closeWait = (q: string) => {
      const w = open.get(`${e.msgId}|${q}`);
      if (w) {
        s!.waits.push({ queue: q, from: w.from, to: e.t, ttl: w.ttl });
        open.delete(`${e.msgId}|${q}`);
      }
    };
    switch (e.kind) {
      case 'published':
        s.headers = e.headers;
        if (e.origin.kind === 'consumer')
          s.hops.push({
            t: e.t,
            kind: 'republish',
            text: `republished by ${e.origin.id} to ${e.exchange || '(default)'}`,
          });
        break;
      case 'delayed':
        s.hops.push({ t: e.t, kind: 'delayed', text: `held ${e.delayMs} ms by ${e.exchange}` });
        break;
      case 'enqueued':
        open.set(`${e.msgId}|${e.queue}`, { queue: e.queue, from: e.t, ttl: e.expiresAt !== undefined });
        break;
      case 'delivered':
        closeWait(e.queue);
        s.headers = e.headers;
        s.xDeath = e.xDeath ?? [];
        break;
      case 'expired':
        closeWait(e.queue);
        break;
      case 'dead-lettered':
        closeWait(e.queue);
        if (e.xDeath) s.xDeath = e.xDeath;
        s.hops.push({ t: e.t, kind: 'dead-letter', text: `dead-lettered from ${e.queue} (${e.reason})` });
        break;
      case 'processed':
        s.attempts.push({ t: e.t, ok: e.ok, consumer: e.consumer });
        break;
      case 'dropped':
        s.hops.push({ t: e.t, kind: 'dropped', text: `dropped: ${e.why}` });
        break;
    }
  }
  for (const s of out) {
    const stated = outcomes[s.msgId];
    if (stated) [s.fate, s.tone] = [stated.text, outcomeTone(stated.outcome)];
  }
  for (const [k, w] of open) {
    const s = by.get(k.split('|')[0]!);
    if (s) s.waits.push({ queue: w.queue, from: w.from, to: Math.max(s.end, w.from), ttl: w.ttl });
  }
  return out;
}

/** Node-level path of a message: the sequence of (kind, place) a comparison can line up. */
export function hopsOf(events: readonly SimEvent[]): string[] {
  const hops: string[] = [];
  for (const e of events) {
    switch (e.kind) {
      case 'routed':
        hops.push(`routed ${e.exchange}`);
        break;
      case 'enqueued':
        hops.push(`enqueued ${e.queue}`);
        break;
      case 'delivered':
        hops.push(`delivered ${e.queue}`);
        break;
      case 'acked':
      case 'rejected':
      case 'requeued':
        hops.push(`${e.kind} ${e.queue}`);
        break;
      case 'dead-lettered':
        hops.push(`dead-lettered ${e.queue} (${e.reason})`);
        break;
      case 'expired':
        hops.push(`expired ${e.queue}`);
        break;
      case 'dropped':
        hops.push(`dropped ${e.why}`);
        break;
    }
  }
  return hops;
}

/** A settlement as the inspector lists it; a multiple settles every earlier unacked delivery on the channel with one method. */
export function settleText(e: SimEventOf<'acked'> | SimEventOf<'rejected'> | SimEventOf<'requeued'>): string {
  let how = '';
  if (e.multiple)
    how =
      e.kind === 'acked'
        ? ' (basic.ack multiple)'
        : e.kind === 'rejected'
          ? ' (basic.nack multiple, requeue=false)'
          : ' (basic.nack multiple, requeue=true)';
  else if (e.kind === 'requeued' && e.via === 'reject') how = ' (basic.reject)';
  // the application gave up: the broker saw an ack, the message is gone
  if (e.kind === 'acked' && e.discarded)
    return `discarded ${e.queue} by ${e.consumer} (basic.ack after giving up: lost)`;
  return `${e.kind} ${e.queue} by ${e.consumer}${how}`;
}
