/**
 * What a re-drive counts, one type for the dry run's plan and the server's job: how many moved,
 * to which destination, how many the filter left out, and why the others were skipped.
 */
export interface RedriveCounts {
  readonly moved: number;
  readonly filteredOut: number;
  /** destination (`exchange:key -> queue, queue`) -> count */
  readonly byDestination: Readonly<Record<string, number>>;
  /** skip reason -> count */
  readonly skipped: Readonly<Record<string, number>>;
}

/** The running tally behind `RedriveCounts`; the job also takes a count back when an original returns to its queue. */
export class RedriveTally {
  moved = 0;
  filteredOut = 0;
  readonly byDestination: Record<string, number> = {};
  readonly skipped: Record<string, number> = {};

  countMoved(destination: string): void {
    this.moved += 1;
    this.byDestination[destination] = (this.byDestination[destination] ?? 0) + 1;
  }

  countSkipped(reason: string): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
  }

  uncountSkipped(reason: string): void {
    const left = (this.skipped[reason] ?? 0) - 1;
    if (left > 0) this.skipped[reason] = left;
    else delete this.skipped[reason];
  }

  /** a copy: the tally goes on */
  counts(): RedriveCounts {
    return {
      moved: this.moved,
      filteredOut: this.filteredOut,
      byDestination: { ...this.byDestination },
      skipped: { ...this.skipped },
    };
  }
}

/**
 * What a finished re-drive moved against what it selected (the filter's matches within the
 * limit): short when any selected message was skipped (its destination missing or unroutable,
 * ...). A re-drive that moved 0 of 20 is a failure, and says why. Skipped messages do not count
 * toward a limit, so under `limit` 20 one may read and skip 2,000: it says what the limit asked
 * for and what was read on the way ("moved 0 of 2000 selected" said neither).
 */
export function redriveShortfall(
  c: RedriveCounts,
  limit?: number,
): {
  readonly selected: number;
  readonly moved: number;
  readonly short: boolean;
  readonly why: string;
} {
  const skipped = Object.entries(c.skipped).filter(([, n]) => n > 0);
  const skippedTotal = skipped.reduce((n, [, k]) => n + k, 0);
  const selected = c.moved + skippedTotal;
  const why = skipped.map(([reason, n]) => `${n} ${reason}`).join('; ');
  return {
    selected,
    moved: c.moved,
    short: skippedTotal > 0,
    why:
      limit !== undefined && selected > limit
        ? `moved ${c.moved} of the ${limit} the limit asked for; ${skippedTotal} message(s) read on the way were skipped: ${why}`
        : skippedTotal > 0
          ? `moved ${c.moved} of ${selected} selected: ${why}`
          : `moved ${c.moved} of ${selected} selected`,
  };
}
