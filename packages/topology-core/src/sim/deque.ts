/**
 * A FIFO with a head index (no Array.shift), plus the one middle insertion RabbitMQ needs:
 * a classic queue puts a requeued message back at its original position.
 */
export class Deque<T> {
  private a: T[] = [];
  private h = 0;

  get length(): number {
    return this.a.length - this.h;
  }

  peek(): T | undefined {
    return this.h < this.a.length ? this.a[this.h] : undefined;
  }

  at(i: number): T | undefined {
    return this.a[this.h + i];
  }

  push(x: T): void {
    this.a.push(x);
  }

  unshift(x: T): void {
    if (this.h > 0) {
      this.h--;
      this.a[this.h] = x;
    } else this.a.unshift(x);
  }

  shift(): T | undefined {
    if (this.h >= this.a.length) return undefined;
    const x = this.a[this.h] as T;
    (this.a as (T | undefined)[])[this.h] = undefined;
    this.h++;
    // compact once the dead prefix dominates, keeping shift amortised O(1)
    if (this.h > 1024 && this.h * 2 > this.a.length) {
      this.a = this.a.slice(this.h);
      this.h = 0;
    } else if (this.h === this.a.length) {
      this.a.length = 0;
      this.h = 0;
    }
    return x;
  }

  /** insert keeping ascending order of key(x) (stable: after equal keys) */
  insertSorted(x: T, key: (v: T) => number): void {
    const k = key(x);
    const a = this.a;
    let lo = this.h;
    let hi = a.length;
    // requeues usually land near the head: try the fast paths first
    if (hi === lo || key(a[hi - 1] as T) <= k) {
      a.push(x);
      return;
    }
    if (key(a[lo] as T) > k) {
      this.unshift(x);
      return;
    }
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(a[mid] as T) <= k) lo = mid + 1;
      else hi = mid;
    }
    a.splice(lo, 0, x);
  }

  toArray(): T[] {
    return this.a.slice(this.h);
  }

  clear(): void {
    this.a = [];
    this.h = 0;
  }
}
