/**
 * A live trace's events as they stream in, kept so that the page stays smooth at any size.
 *
 * The canvas, the timeline and the message pane rebuild from the kept events on every update
 * (playback plan, stories), so their cost grows with what is kept: a 10,000-message trace of
 * a three-tier chain streams about 360,000 events. Only the events of the first `maxMessages`
 * messages are kept (every event is still counted), and updates come no more often than they
 * can be afforded: the pause before the next one is `costFactor` times what the last one took,
 * between `minDelayMs` and `maxDelayMs`. Events about no message (queue depth samples) are kept
 * but do not call for an update by themselves.
 */
import type { SimEvent } from '@retry-studio/topology-core/sim';

export interface LiveTraceBufferOptions {
  readonly maxMessages?: number;
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly costFactor?: number;
}

/**
 * Messages drawn and laned (the timeline shows 150 lanes). Each is a token drawn every frame,
 * next to its predicted twin: 200 of each keep the canvas smooth in software rendering on a
 * busy machine (bench:trace-browser), where 500 + 550 did not.
 */
export const LIVE_MESSAGES_SHOWN = 200;

export class LiveTraceBuffer {
  /** the kept events, in arrival order */
  readonly events: SimEvent[] = [];
  /** every event received */
  received = 0;
  private readonly shown = new Set<string>();
  private readonly others = new Set<string>();
  private changed = false;
  private lastCostMs = 0;
  private readonly maxMessages: number;
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly costFactor: number;

  constructor(opts: LiveTraceBufferOptions = {}) {
    this.maxMessages = opts.maxMessages ?? LIVE_MESSAGES_SHOWN;
    this.minDelayMs = opts.minDelayMs ?? 150;
    this.maxDelayMs = opts.maxDelayMs ?? 2000;
    this.costFactor = opts.costFactor ?? 8;
  }

  /** Takes an event; true when it changes what is shown (an update is due). */
  add(e: SimEvent): boolean {
    this.received += 1;
    if (e.msgId === '') {
      this.events.push(e);
      return false;
    }
    if (!this.shown.has(e.msgId)) {
      if (this.shown.size >= this.maxMessages) {
        this.others.add(e.msgId);
        return false;
      }
      this.shown.add(e.msgId);
    }
    this.events.push(e);
    this.changed = true;
    return true;
  }

  /** Whether message events were kept since the last `taken()`. */
  get pending(): boolean {
    return this.changed;
  }

  /** The kept events were handed to the views. */
  taken(): void {
    this.changed = false;
  }

  /** How long the last update took (its synchronous part and the render it caused). */
  cost(ms: number): void {
    this.lastCostMs = ms;
  }

  /** ms to wait before the next update */
  get delayMs(): number {
    return Math.min(this.maxDelayMs, Math.max(this.minDelayMs, this.costFactor * this.lastCostMs));
  }

  get messagesShown(): number {
    return this.shown.size;
  }

  /** messages seen, shown or not */
  get messagesSeen(): number {
    return this.shown.size + this.others.size;
  }
}
