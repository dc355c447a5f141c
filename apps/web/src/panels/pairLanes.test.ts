// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pairLanes } from './pairLanes';

const s = (msgId: string) => ({ msgId });

describe('pairLanes', () => {
  it("puts each message's live lane under its predicted one, then the unpaired", () => {
    const lanes = pairLanes([s('msg-1'), s('msg-2'), s('msg-3')], [s('msg-2'), s('msg-1'), s('msg-9')], 150);
    expect(lanes.map((l) => `${l.source}:${l.story.msgId}${l.paired ? '' : '!'}`)).toEqual([
      'sim:msg-1',
      'live:msg-1',
      'sim:msg-2',
      'live:msg-2',
      'sim:msg-3!',
      'live:msg-9!',
    ]);
  });

  it('keeps the lane cap per side', () => {
    expect(pairLanes([s('a'), s('b')], [s('a'), s('b')], 1).map((l) => `${l.source}:${l.story.msgId}`)).toEqual([
      'sim:a',
      'live:a',
    ]);
  });
});
