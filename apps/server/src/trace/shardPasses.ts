/**
 * A copy routed by BCC keys alone carries no trace of them (the broker strips BCC), so when those
 * keys bind several shards of one exchange's mirror, each shard holds a copy of the same pass and
 * none can tell which shard owns it. Passes are counted instead: copies with the same signature
 * (body, properties, headers, routing key) in shard s are new passes only as far as s has seen
 * more of them than any other shard. Two identical passes (a worker republishing a message
 * unchanged) are still two: each shard sees both.
 */
export class ShardPasses {
  private readonly counts = new Map<string, number[]>();

  constructor(
    private readonly shards: number,
    /** signatures remembered at most (oldest forgotten first): a bound on memory in a long trace */
    private readonly max = 50_000,
  ) {}

  /** counts the copy; true when it is a pass no other shard has shown */
  firstSight(signature: string, shard: number): boolean {
    let c = this.counts.get(signature);
    if (!c) {
      c = new Array<number>(this.shards).fill(0);
      this.counts.set(signature, c);
      if (this.counts.size > this.max) this.counts.delete(this.counts.keys().next().value as string);
    }
    const seen = ++c[shard]!;
    let others = 0;
    for (let i = 0; i < c.length; i++) if (i !== shard) others = Math.max(others, c[i]!);
    return seen > others;
  }
}
