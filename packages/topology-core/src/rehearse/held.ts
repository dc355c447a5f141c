/**
 * Messages a delayed-message exchange holds for later (rehearsal weights): held when the exchange
 * takes one ('delayed'), released when that exchange routes it on ('routed'). The broker counts
 * them in no queue; they are still in flight, and still cost RAM and disk (brokerBill.ts).
 */
export type HoldListener = (exchange: string, dw: number, t: number) => void;

export class DelayedExchangeHolds {
  /** by `exchange \n msgId`: how many copies of that message the exchange holds */
  private readonly held = new Map<string, number>();
  /** weighted, every exchange */
  total = 0;

  constructor(private readonly listener?: HoldListener) {}

  delayed(exchange: string, msgId: string, w: number, t: number): void {
    const key = `${exchange}\n${msgId}`;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    this.total += w;
    this.listener?.(exchange, w, t);
  }

  /** the exchange routed a message: released when it held one */
  routed(exchange: string, msgId: string, w: number, t: number): void {
    const key = `${exchange}\n${msgId}`;
    const n = this.held.get(key);
    if (n === undefined) return;
    if (n <= 1) this.held.delete(key);
    else this.held.set(key, n - 1);
    this.total -= w;
    this.listener?.(exchange, -w, t);
  }
}
