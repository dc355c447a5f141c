/**
 * The timeline's lanes with each message's predicted lane right above its live one (the same
 * message id: the trace names its messages as the prediction does), then the messages only one
 * side has. Side by side, a difference in one message reads at a glance.
 */
export interface LaneOf<S> {
  readonly story: S;
  readonly source: 'sim' | 'live';
  /** the lane's message has a lane on the other side too (drawn as a pair) */
  readonly paired: boolean;
}

export function pairLanes<S extends { readonly msgId: string }>(
  sim: readonly S[],
  live: readonly S[],
  max: number,
): LaneOf<S>[] {
  const liveById = new Map(live.map((s) => [s.msgId, s]));
  const lanes: LaneOf<S>[] = [];
  const used = new Set<string>();
  for (const story of sim.slice(0, max)) {
    const twin = liveById.get(story.msgId);
    lanes.push({ story, source: 'sim', paired: twin !== undefined });
    if (twin) {
      lanes.push({ story: twin, source: 'live', paired: true });
      used.add(story.msgId);
    }
  }
  for (const story of live.slice(0, max))
    if (!used.has(story.msgId)) lanes.push({ story, source: 'live', paired: false });
  return lanes;
}
