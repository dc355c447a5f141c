/**
 * "Nothing arrived for `ms`": `arm()` is called for every message, so it only notes the time;
 * the one timer pending re-arms itself for what is left (a timer per message cost more than the
 * rest of reading one). `onIdle` decides what idle means, and may `arm()` again.
 */
export class IdleClock {
  private timer: NodeJS.Timeout | undefined;
  private lastArrival = 0;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  arm(): void {
    this.lastArrival = performance.now();
    this.timer ??= setTimeout(() => this.fire(), this.ms);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    const left = this.ms - (performance.now() - this.lastArrival);
    if (left > 1) this.timer = setTimeout(() => this.fire(), left);
    else this.onIdle();
  }
}
