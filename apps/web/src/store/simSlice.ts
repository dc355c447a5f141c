import type { StateCreator } from 'zustand';
import type { Design, FailureModel } from '@retry-studio/topology-core/model';
import { fateRulesOf, type FateRules, type RetryHorizon, type SimEvent } from '@retry-studio/topology-core/sim';
import type { AppState } from './store';
import { player, type RunReading } from '../sim/player';
import { assumedActorsOf, drawnNodeId } from '../model/assumedActors';
import { runDesignSimulation, statedOutcomesOfEvents, type StatedOutcome } from '../sim/runSimulation';
import { outagesFor, resolveNodeLoss, type NodeLossDraft, type QueueOutage } from '../sim/nodeLossWhatIf';

/** the design's fate rules, once per design version (a live trace loads its events many times a second) */
const rulesByDesign = new WeakMap<Design, FateRules>();
function rulesOf(design: Design): FateRules {
  let r = rulesByDesign.get(design);
  if (!r) rulesByDesign.set(design, (r = fateRulesOf(design)));
  return r;
}

/** a run read against the design: its fate rules (the lanes' too), and tokens on the nodes the canvas draws */
function readingOf(design: Design, running: boolean): RunReading {
  const actors = assumedActorsOf(design);
  return {
    fates: { rules: rulesOf(design), running },
    ...(actors.foldedInto.size ? { drawnNode: (id: string) => drawnNodeId(actors, id) } : {}),
  };
}

export interface SimSlice {
  failure: FailureModel;
  messageCount: number;
  seed: number;
  /** the simulated run's events (kept for the timeline and the inspector) */
  simEvents: readonly SimEvent[] | null;
  simError: string | null;
  simTruncated: boolean;
  /** each simulated message's outcome, decided by the core (see runSimulation) */
  simOutcomes: Readonly<Record<string, StatedOutcome>>;
  /** the live trace's events, as they stream in */
  liveEvents: readonly SimEvent[] | null;
  /** each live message's outcome, read from its events by the core's outcome function (what a live lane and the detail state) */
  liveOutcomes: Readonly<Record<string, StatedOutcome>>;
  /** the live trace is still going (a message at a worker is being processed, not held) */
  liveRunning: boolean;
  /** the failure model the live trace's workers use */
  liveFailure: FailureModel | null;
  inspectedMsg: string | null;
  /** the side panel shows the inspected message (else the node inspector: a node was clicked since; the path stays highlighted) */
  messagePane: boolean;
  /** where a live trace first parts from the prediction (node id), drawn on the overlay */
  divergenceNode: string | null;
  /** "what if a node goes down": included in the next simulation when set */
  nodeLoss: NodeLossDraft | null;
  /** the last run's unavailable windows per queue (the canvas greys them, the budget adds them) */
  simOutages: readonly QueueOutage[];
  /** the probed cluster's node names (empty: not a cluster, or not probed) */
  clusterNodeNames: readonly string[];
  /** design queue -> its leader (quorum) or node (classic), from the deploy plan; undefined until planned */
  queuePlacement: Readonly<Record<string, string>> | undefined;
  setNodeLoss: (d: NodeLossDraft | null) => void;
  setClusterNodeNames: (names: readonly string[]) => void;
  setQueuePlacement: (p: Readonly<Record<string, string>> | undefined) => void;
  setFailure: (f: FailureModel) => void;
  setMessageCount: (n: number) => void;
  runSimulation: () => void;
  clearSimulation: () => void;
  /** `running` (default: as before): whether the trace is still going; `failure`: its workers' model (kept until set again) */
  setLiveEvents: (events: readonly SimEvent[] | null, opts?: { running?: boolean; failure?: FailureModel }) => void;
  /** the server's prediction for the live trace, drawn as the simulated run: its outcomes read the same way as the live ones */
  /** the server's prediction for a live trace, run to `horizon` (the design's, sim/retryHorizon.ts) */
  setPredictedEvents: (events: readonly SimEvent[], horizon: RetryHorizon) => void;
  inspectMessage: (msgId: string | null) => void;
}

export const createSimSlice: StateCreator<AppState, [], [], SimSlice> = (set, get) => ({
  failure: { kind: 'failFirst', n: 2 },
  messageCount: 3,
  seed: 1,
  simEvents: null,
  simError: null,
  simTruncated: false,
  simOutcomes: {},
  liveEvents: null,
  liveOutcomes: {},
  liveRunning: false,
  liveFailure: null,
  inspectedMsg: null,
  messagePane: false,
  divergenceNode: null,
  nodeLoss: null,
  simOutages: [],
  clusterNodeNames: [],
  queuePlacement: undefined,
  setNodeLoss: (nodeLoss) => set({ nodeLoss }),
  setClusterNodeNames: (clusterNodeNames) => set({ clusterNodeNames }),
  setQueuePlacement: (queuePlacement) => set({ queuePlacement }),
  setFailure: (failure) => set({ failure }),
  setMessageCount: (messageCount) => set({ messageCount }),
  runSimulation: () => {
    const s = get();
    const nodeLoss = s.nodeLoss ? resolveNodeLoss(s.nodeLoss, s.design, s.queuePlacement) : undefined;
    const r = runDesignSimulation(s.design, {
      messages: s.messageCount,
      failure: s.failure,
      seed: s.seed,
      ...(nodeLoss ? { nodeLoss } : {}),
    });
    if ('error' in r) {
      player.load('sim', null);
      set({ simEvents: null, simError: r.error, simTruncated: false, simOutcomes: {}, simOutages: [] });
      return;
    }
    player.reset();
    // the tokens' fates read the design's rules, as the lanes do (a run cut short goes on)
    player.load('sim', r.events, readingOf(s.design, r.truncated));
    set({
      simEvents: r.events,
      simError: null,
      simTruncated: r.truncated,
      simOutcomes: r.outcomes,
      inspectedMsg: null,
      simOutages: nodeLoss ? outagesFor(nodeLoss, s.design) : [],
    });
  },
  clearSimulation: () => {
    player.reset();
    player.load('sim', null);
    set({ simEvents: null, simError: null, simOutcomes: {}, inspectedMsg: null, simOutages: [] });
  },
  setLiveEvents: (liveEvents, opts = {}) => {
    const s = get();
    const liveRunning = liveEvents ? (opts.running ?? s.liveRunning) : false;
    // no run, nothing to read it against: a design opened clears the live run (its rules were read for nothing)
    player.load('live', liveEvents, liveEvents ? readingOf(s.design, liveRunning) : undefined);
    const liveFailure = opts.failure ?? s.liveFailure;
    const failure = liveFailure ?? undefined;
    const liveOutcomes = liveEvents?.length
      ? statedOutcomesOfEvents(s.design, liveEvents, { running: liveRunning, ...(failure ? { failure } : {}) })
      : {};
    set({ liveEvents, liveOutcomes, liveRunning, liveFailure });
  },
  setPredictedEvents: (events, horizon) => {
    const s = get();
    player.load('sim', events, readingOf(s.design, false));
    const failure = s.liveFailure ?? s.failure;
    set({
      simEvents: events,
      simError: null,
      simTruncated: false,
      simOutcomes: statedOutcomesOfEvents(s.design, events, { running: false, failure, horizon }),
    });
  },
  inspectMessage: (inspectedMsg) =>
    set(inspectedMsg ? { inspectedMsg, messagePane: true, sideTab: 'inspect' } : { inspectedMsg, messagePane: false }),
});
