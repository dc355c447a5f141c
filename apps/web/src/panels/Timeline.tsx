import { memo, useMemo, useSyncExternalStore, type CSSProperties } from 'react';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import { useApp } from '../store/store';
import { player } from '../sim/player';
import { displayAt } from '../sim/compilePlayback';
import { storiesOf, type Story } from './messageStory';
import { fmtT } from './SimBar';
import { timeTicks } from './timeTicks';
import { pairLanes } from './pairLanes';

const LANE_H = 18;
const LABEL_W = 110;
const MAX_LANES = 150;
const MAX_MARKS = 200;
const HOP_TONE = {
  'dead-letter': 'bg-rose-400',
  republish: 'bg-violet-400',
  delayed: 'bg-pink-400',
  dropped: 'bg-red-600',
} as const;

/** consumers whose framework draws each retry wait at random below the modelled one (Celery's retry_jitter) */
function useJittered(): ReadonlySet<string> {
  const sources = useApp((s) => s.design.sources);
  return useMemo(
    () =>
      new Set(
        Object.entries(sources ?? {})
          .filter(([id, src]) => id.startsWith('consumer:') && src.jitter === true)
          .map(([id]) => id.slice('consumer:'.length)),
      ),
    [sources],
  );
}

export function Timeline() {
  const jittered = useJittered();
  const sim = useApp((s) => s.simEvents);
  const live = useApp((s) => s.liveEvents);
  const inspected = useApp((s) => s.inspectedMsg);
  const outcomes = useApp((s) => s.simOutcomes);
  const simStories = useMemo(() => (sim ? storiesOf(sim, outcomes) : []), [sim, outcomes]);
  const liveOutcomes = useApp((s) => s.liveOutcomes);
  const liveStories = useMemo(() => (live ? storiesOf(live, liveOutcomes) : []), [live, liveOutcomes]);
  if (!sim && !live)
    return (
      <div data-testid="timeline-empty" className="p-3 text-xs text-slate-400">
        Press <b>Simulate</b> to run the design: every message gets a lane here with its hops, waits and attempts. Click
        a lane to see its headers and x-death.
      </div>
    );
  const endT = Math.max(1, ...simStories.map((s) => s.end), ...liveStories.map((s) => s.end));
  // a traced message's predicted and live lanes side by side
  const lanes = pairLanes<Story>(simStories, liveStories, MAX_LANES);
  const keys = outcomeKeys(lanes.map((l) => l.story));
  return (
    <div className="flex h-full min-h-0">
      <div data-testid="timeline" className="min-w-0 flex-1 overflow-auto" role="list" aria-label="Messages">
        <OutcomeKeys keys={keys} />
        <TimeAxis endT={endT} />
        {/* marks are placed by a CSS variable: as a live trace runs and the end moves, no lane re-renders for it */}
        <div className="relative" style={{ '--end-t': endT } as CSSProperties}>
          {lanes.map(({ story, source, paired }) => (
            <Lane
              key={`${source}:${story.msgId}`}
              story={story}
              source={source}
              paired={paired}
              active={story.msgId === inspected}
              jittered={jittered}
              outcomeKey={keys.get(story.fate)?.key ?? 0}
            />
          ))}
          <Playhead endT={endT} />
        </div>
        {simStories.length > MAX_LANES && (
          <div className="p-1 text-[10px] text-slate-500">
            showing the first {MAX_LANES} of {simStories.length} messages
          </div>
        )}
        <div data-testid="timeline-legend" className="flex flex-wrap gap-3 px-1 pt-1 text-[10px] text-slate-500">
          <span>
            <i className="mr-1 inline-block h-2 w-1.5 bg-red-500" />
            failed attempt
          </span>
          <span>
            <i className="mr-1 inline-block h-2 w-1.5 bg-emerald-400" />
            successful attempt
          </span>
          <span>
            <i className="mr-1 inline-block h-2 w-4 bg-amber-400/70" />
            TTL wait
          </span>
          <span>
            <i className="mr-1 inline-block h-2 w-4 bg-slate-500/60" />
            queued
          </span>
          <span>
            <i className="mr-1 inline-block h-3 w-0.5 bg-rose-400" />
            dead-lettered
          </span>
          <span>
            <i className="mr-1 inline-block h-3 w-0.5 bg-violet-400" />
            republished
          </span>
          <span>
            <i className="mr-1 inline-block h-3 w-0.5 bg-pink-400" />
            delayed
          </span>
          {jittered.size > 0 && (
            <span
              data-testid="timeline-jitter-legend"
              title="Celery retry_jitter: each retry comes at a uniform random time up to the wait the model draws"
            >
              <i className="mr-1 inline-block h-2 w-4 bg-[repeating-linear-gradient(135deg,rgba(248,113,113,0.5)_0_2px,transparent_2px_5px)]" />
              jittered wait: the retry comes anywhere in it (drawn at its end, the maximum)
            </span>
          )}
          <span className="text-sky-400">● simulated</span>
          <span className="text-orange-400">● live</span>
        </div>
      </div>
    </div>
  );
}

/** the lane's outcome column: the key of its outcome, whose words the list above the lanes says whole */
const FATE_W = 40;

interface OutcomeKey {
  /** 1, 2, ... in the order the lanes first state it */
  key: number;
  /** lanes stating it */
  n: number;
  tone: Story['tone'];
}

/** each outcome the lanes state, once: a lane's outcome column cut the core's words short ("discarded by FulfillOrder at …") */
function outcomeKeys(stories: readonly Story[]): Map<string, OutcomeKey> {
  const out = new Map<string, OutcomeKey>();
  for (const s of stories) {
    if (!s.fate) continue;
    const k = out.get(s.fate);
    if (k) k.n++;
    else out.set(s.fate, { key: out.size + 1, n: 1, tone: s.tone });
  }
  return out;
}

/** The outcomes the lanes state, each whole in the core's words (sim/outcomeText.ts), with its key and how many say it. */
function OutcomeKeys({ keys }: { keys: ReadonlyMap<string, OutcomeKey> }) {
  if (keys.size === 0) return null;
  return (
    // a run with many outcomes scrolls its list: the lanes stay in view under it
    <ol
      data-testid="timeline-outcomes"
      className="max-h-[4.6rem] space-y-0.5 overflow-y-auto border-b border-slate-800 px-1 py-1 text-[11px]"
    >
      {[...keys].map(([text, k]) => (
        <li key={k.key} data-testid="timeline-outcome" className="flex items-start gap-1.5">
          <KeyBadge k={k} />
          <span className={FATE_TONE[k.tone]}>
            <span className="text-slate-400">
              {k.n} lane{k.n === 1 ? '' : 's'}:{' '}
            </span>
            {text}
          </span>
        </li>
      ))}
    </ol>
  );
}

function KeyBadge({ k }: { k: Pick<OutcomeKey, 'key' | 'tone'> }) {
  return (
    <span
      className={`inline-flex h-3.5 min-w-3.5 shrink-0 items-center justify-center rounded-full border border-current px-0.5 text-[9px] font-semibold leading-none ${FATE_TONE[k.tone]}`}
    >
      {k.key}
    </span>
  );
}
const FATE_TONE = {
  ok: 'text-emerald-400',
  loss: 'text-red-400',
  rest: 'text-sky-300',
  open: 'text-amber-300',
} as const;

function TimeAxis({ endT }: { endT: number }) {
  const ticks = timeTicks(endT);
  return (
    <div className="sticky top-0 z-10 flex h-5 bg-slate-950 text-[10px] text-slate-500">
      <div style={{ width: LABEL_W }} className="shrink-0 pl-1">
        message
      </div>
      <div className="relative mr-1 flex-1">
        {ticks.map(({ at, label }) => (
          <span
            key={label}
            className="absolute whitespace-nowrap"
            style={{
              left: `${at * 100}%`,
              transform: at > 0.97 ? 'translateX(-100%)' : at ? 'translateX(-50%)' : undefined,
            }}
          >
            {label}
          </span>
        ))}
      </div>
      <div style={{ width: FATE_W }} className="shrink-0 pl-1" title="the outcome's key in the list above">
        end
      </div>
    </div>
  );
}

/** a time as a share of the timeline's width (its `--end-t`) */
const at = (t: number): string => `calc(${t} * 100% / var(--end-t))`;

/** a story's events only grow: the same run's message (its first event) with as many events and the same end and fate draws the same lane */
const sameLane = (a: LaneProps, b: LaneProps): boolean =>
  a.source === b.source &&
  a.jittered === b.jittered &&
  a.active === b.active &&
  a.paired === b.paired &&
  a.outcomeKey === b.outcomeKey &&
  (a.story === b.story ||
    (a.story.msgId === b.story.msgId &&
      a.story.events[0] === b.story.events[0] &&
      a.story.events.length === b.story.events.length &&
      a.story.end === b.story.end &&
      a.story.fate === b.story.fate));

interface LaneProps {
  story: Story;
  source: 'sim' | 'live';
  active: boolean;
  /** drawn with its twin of the other side (predicted above live) */
  paired: boolean;
  /** consumers with jittered retry waits: the span before each of their retries is drawn as a range */
  jittered: ReadonlySet<string>;
  /** its outcome's key in the list above the lanes (0: none stated yet) */
  outcomeKey: number;
}

const Lane = memo(function Lane({ story, source, active, paired, jittered, outcomeKey }: LaneProps) {
  const color = source === 'sim' ? '#38bdf8' : '#f97316';
  const fateTone = FATE_TONE[story.tone];
  return (
    <button
      type="button"
      role="listitem"
      data-testid="timeline-lane"
      data-msg={story.msgId}
      data-source={source}
      data-paired={paired || undefined}
      onClick={() => {
        const s = useApp.getState();
        // the inspected lane again: back to its detail if a node was inspected since, else closed
        if (active && !s.messagePane) useApp.setState({ messagePane: true, sideTab: 'inspect' });
        else s.inspectMessage(active ? null : story.msgId);
      }}
      title={`${story.body}: ${story.fate}`}
      className={`flex w-full items-center text-left focus:outline-none focus-visible:ring-1 focus-visible:ring-sky-400 ${active ? 'bg-slate-700/70' : 'hover:bg-slate-800/70'}${paired && source === 'sim' ? ' border-t border-slate-700/60' : ''}`}
      style={{ height: LANE_H }}
    >
      <span style={{ width: LABEL_W }} className="flex shrink-0 items-center gap-1 truncate pl-1 font-mono text-[10px]">
        <span className="inline-block h-2 w-2 rounded-full" style={{ background: color }} />
        {/* the end shows when it does not fit: bodies share their start (`orders.events-1`, `orders.events-2`) */}
        <span className="truncate text-slate-300" style={{ direction: 'rtl', textAlign: 'left' }} title={story.body}>
          <bdi dir="ltr">{story.body}</bdi>
        </span>
      </span>
      <span className="relative h-full flex-1">
        <span className="absolute top-1/2 h-px w-full bg-slate-800" />
        {/* a message that cycles forever has thousands of marks: the first MAX_MARKS tell the story */}
        {story.waits.slice(0, MAX_MARKS).map((w, i) => (
          <span
            key={i}
            title={`${w.ttl ? 'TTL wait' : 'waiting'} in ${w.queue}: ${fmtT(w.to - w.from)}`}
            className={`absolute top-[5px] h-2 rounded-sm ${w.ttl ? 'bg-amber-400/70' : 'bg-slate-500/60'}`}
            style={{ left: at(w.from), width: `max(2px, ${at(w.to - w.from)})` }}
          />
        ))}
        {story.hops.slice(0, MAX_MARKS).map((h, i) => (
          <span
            key={`h${i}`}
            title={`${h.text} at ${fmtT(h.t)}`}
            className={`absolute top-[2px] h-3.5 w-0.5 -translate-x-1/2 ${HOP_TONE[h.kind]}`}
            style={{ left: at(h.t) }}
          />
        ))}
        {story.attempts
          .slice(1, MAX_MARKS)
          .map((a, i) =>
            jittered.has(a.consumer) && story.attempts[i]!.consumer === a.consumer ? (
              <span
                key={`j${i}`}
                data-testid="jitter-range"
                title={`retry ${i + 1}: jittered, at a uniform random time up to ${fmtT(a.t - story.attempts[i]!.t)} after attempt ${i + 1} (drawn at the maximum)`}
                className="absolute top-[5px] h-2 bg-[repeating-linear-gradient(135deg,rgba(248,113,113,0.5)_0_2px,transparent_2px_5px)]"
                style={{ left: at(story.attempts[i]!.t), width: `max(2px, ${at(a.t - story.attempts[i]!.t)})` }}
              />
            ) : null,
          )}
        {story.attempts.slice(0, MAX_MARKS).map((a, i) => (
          <span
            key={i}
            title={`attempt ${i + 1} at ${fmtT(a.t)}: ${a.ok ? 'ok' : 'failed'}`}
            className={`absolute top-[4px] h-2.5 w-1.5 -translate-x-1/2 rounded-sm ${a.ok ? 'bg-emerald-400' : 'bg-red-500'}`}
            style={{ left: at(a.t) }}
          />
        ))}
      </span>
      <span style={{ width: FATE_W }} className="flex shrink-0 items-center pl-1" title={story.fate}>
        {outcomeKey > 0 && <KeyBadge k={{ key: outcomeKey, tone: story.tone }} />}
        {/* the words, whole, for a reader of the page: the list above shows them */}
        <span data-testid="lane-outcome" className={`sr-only ${fateTone}`}>
          {story.fate}
        </span>
      </span>
    </button>
  );
}, sameLane);

function Playhead({ endT }: { endT: number }) {
  const t = useSyncExternalStore(
    (l) => player.subscribe(l),
    () => player.virtualNow,
  );
  return (
    <div className="pointer-events-none absolute inset-y-0" style={{ left: LABEL_W, right: FATE_W }}>
      <div className="absolute inset-y-0 w-px bg-sky-400/70" style={{ left: `${Math.min(1, t / endT) * 100}%` }} />
    </div>
  );
}

/** Seek the player to an event (used by the detail list). */
export function seekTo(e: SimEvent): void {
  const plan = player.clockPlan;
  if (plan) player.seek(displayAt(plan, e.t));
}
