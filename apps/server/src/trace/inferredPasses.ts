/**
 * Passes through a mirrored exchange reported from a worker's delivery before the mirror's copy
 * of them arrived. The broker routes a dead letter to the worker's queue and to the mirror at
 * once, but in a burst the mirror's copy can come milliseconds after the delivery (4% of a
 * chained burst's deliveries waited for it, 50 ms at p90): the delivery shows the same pass (its
 * exchange, routing key and headers are those of the copy), so the pass is reported from it and
 * the copy, when it comes, is that pass and not another one.
 *
 * Counted per key (a pass reported twice is awaited twice), bounded: past `max` keys the oldest
 * go (a copy that never came, its mirror lost with a reconnect). Kept as 53-bit hashes
 * (recentKeys.ts).
 */
import { hash53 } from './recentKeys.js';

export class InferredPasses {
  private readonly awaited = new Map<number, number>();

  constructor(private readonly max = 50_000) {}

  /** a pass reported from a delivery: its copy is awaited */
  add(key: string): void {
    const h = hash53(key);
    const n = this.awaited.get(h);
    if (n !== undefined) this.awaited.set(h, n + 1);
    else {
      if (this.awaited.size >= this.max) this.awaited.delete(this.awaited.keys().next().value!);
      this.awaited.set(h, 1);
    }
  }

  /** a mirror's copy: true when it is a pass already reported (and no longer awaited) */
  take(key: string): boolean {
    if (this.awaited.size === 0) return false;
    const h = hash53(key);
    const n = this.awaited.get(h);
    if (n === undefined) return false;
    if (n > 1) this.awaited.set(h, n - 1);
    else this.awaited.delete(h);
    return true;
  }

  get size(): number {
    return this.awaited.size;
  }

  clear(): void {
    this.awaited.clear();
  }
}
