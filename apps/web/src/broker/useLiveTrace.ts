/**
 * A live trace of the open design on the broker context: starts it, takes its events over SSE
 * into the store (and the replay, which plays on the broker's clock), asks for the prediction
 * beside it, and points at the first divergence. The Live trace panel shows what it holds.
 */
import { useEffect, useRef, useState } from 'react';
import type { FailureModel } from '@retry-studio/topology-core/model';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import type { PredictionResponse, TraceNotice } from '@retry-studio/contract';
import { useApp } from '../store/store';
import { api, ApiError } from './api';
import { brokerTarget } from './target';
import { traceDurationMs } from './traceDuration';
import { player } from '../sim/player';
import { nodeOfEvent } from '../sim/compilePlayback';
import { attributePublishers } from '../sim/runSimulation';
import { resolveNodeLoss } from '../sim/nodeLossWhatIf';
import { exchangeNodeId, queueNodeId } from '../model/nodeIds';
import { LIVE_MESSAGES_SHOWN, LiveTraceBuffer } from '../sim/liveTraceBuffer';
import type { DesignVersion } from '../store/resultsVersion';
import { currentVersion } from '../store/useFreshness';
import { freshness } from '../store/resultsVersion';

export type TracePhase = 'idle' | 'starting' | 'running' | 'ended';

export interface TraceRun {
  readonly messages: number;
  readonly failure: FailureModel;
  /** put the simulation bar's node loss into the prediction */
  readonly withLoss: boolean;
}

const onCanvas = (v: DesignVersion) => freshness(v, currentVersion()) === 'current';

/** Points the canvas at the node of the first actual event that parts from the prediction. */
function markDivergence(p: PredictionResponse): void {
  const at = p.comparison.firstDifference?.at;
  const ev = at ? useApp.getState().liveEvents?.find((e) => e.seq === at.seq && e.t === at.t) : undefined;
  // a message past those shown has no events here: the hop the comparison names
  const where = p.comparison.firstDifference?.where;
  const fallback =
    where?.queue !== undefined ? queueNodeId(where.queue) : where?.exchange ? exchangeNodeId(where.exchange) : null;
  useApp.setState({ divergenceNode: ev ? (nodeOfEvent(ev) ?? null) : fallback });
}

export function useLiveTrace() {
  const [phase, setPhase] = useState<TracePhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [traceId, setTraceId] = useState<string | null>(null);
  const [n, setN] = useState(0);
  const [prediction, setPrediction] = useState<Pick<PredictionResponse, 'comparison' | 'nodeLoss'> | null>(null);
  const [shown, setShown] = useState<{ shown: number; seen: number } | null>(null);
  // the design and version the trace (or its error) belongs to
  const [runV, setRunV] = useState<DesignVersion | null>(null);
  const source = useRef<EventSource | null>(null);
  const predictionAsked = useRef(0);
  const predictionApplied = useRef(0);
  useEffect(() => () => source.current?.close(), []);

  const fetchPrediction = async (id: string, v: DesignVersion) => {
    // the one at the start may answer after the one at the end: only a later request's answer counts
    const mine = ++predictionAsked.current;
    // only the predicted events of the messages the canvas shows: a 10,000-message trace predicts
    // tens of thousands of events, and parsing them all stalled the page
    const p = await api.prediction(id, LIVE_MESSAGES_SHOWN);
    if (mine < predictionApplied.current) return;
    predictionApplied.current = mine;
    setPrediction({ comparison: p.comparison, ...(p.nodeLoss ? { nodeLoss: p.nodeLoss } : {}) });
    if (!onCanvas(v)) return;
    markDivergence(p);
    if (p.predicted) {
      const pubs = useApp.getState().design.publishers.map((x) => x.id);
      // the prediction of the messages the canvas shows live, token for token; its outcomes read from its events like the live ones
      useApp.getState().setPredictedEvents(attributePublishers(p.predicted, pubs), p.horizon);
    }
  };

  /** Takes the trace's event stream until its end: the views update no more often than they can afford (LiveTraceBuffer). */
  const follow = (events: string, id: string, v: DesignVersion) => {
    const buf = new LiveTraceBuffer();
    const pubs = useApp.getState().design.publishers.map((x) => x.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      setN(buf.received);
      setShown({ shown: buf.messagesShown, seen: buf.messagesSeen });
      if (!buf.pending) return;
      buf.taken();
      if (!onCanvas(v)) return;
      const t0 = performance.now();
      useApp.getState().setLiveEvents(attributePublishers(buf.events, pubs));
      // on the broker's clock: plays on as events arrive, never back to the start
      player.follow();
      // the store's subscribers re-render in a microtask queued during the update: this one runs after them
      queueMicrotask(() => buf.cost(performance.now() - t0));
    };
    const ended = () => {
      // ended: what is left at a worker is held, the rest where the broker left it
      const st = useApp.getState();
      if (onCanvas(v) && st.liveEvents) st.setLiveEvents(st.liveEvents, { running: false });
      setPhase('ended');
    };
    // batch=1: the events of one server turn come as one message (an array): one dispatch, one parse
    const es = new EventSource(`${events}?batch=1`);
    source.current = es;
    const take = (got: SimEvent[]) => {
      for (const e of got) buf.add(e);
      // the count moves even when nothing shown changes
      timer ??= setTimeout(flush, buf.delayMs);
    };
    es.addEventListener('batch', (m) => take(JSON.parse((m as MessageEvent).data) as SimEvent[]));
    es.onmessage = (m) => take([JSON.parse(m.data) as SimEvent]);
    es.addEventListener('notice', (m) => {
      const d = JSON.parse((m as MessageEvent).data) as TraceNotice;
      if (d.level === 'warn' || d.level === 'error') setWarning(d.message ?? null);
    });
    es.addEventListener('end', () => {
      es.close();
      clearTimeout(timer);
      flush();
      ended();
      void fetchPrediction(id, v).catch(() => undefined);
    });
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) ended();
    };
  };

  const start = async (run: TraceRun) => {
    source.current?.close();
    setError(null);
    setWarning(null);
    setPrediction(null);
    setN(0);
    setShown(null);
    useApp.setState({ divergenceNode: null });
    setPhase('starting');
    const v = currentVersion();
    setRunV(v);
    const s = useApp.getState();
    try {
      const nodeLoss = run.withLoss && s.nodeLoss ? resolveNodeLoss(s.nodeLoss, s.design, s.queuePlacement) : undefined;
      const r = await api.trace(s.design, brokerTarget(s.broker), {
        messages: run.messages,
        failure: run.failure,
        seed: s.seed,
        durationMs: traceDurationMs(run.messages),
        ...(nodeLoss ? { nodeLoss } : {}),
      });
      if (r.warning) setWarning(r.warning);
      setTraceId(r.id);
      setPhase('running');
      s.setLiveEvents([], { running: true, failure: run.failure });
      // the replay's clock starts with the trace
      player.reset();
      follow(r.events, r.id, v);
      // the stream first: events that wait in the server's ring reach the page late
      void fetchPrediction(r.id, v).catch(() => undefined);
    } catch (e) {
      setPhase('idle');
      setError(e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message);
    }
  };

  const stop = async () => {
    if (traceId) await api.stopTrace(traceId).catch(() => undefined);
  };

  return { phase, error, warning, n, shown, prediction, runV, start, stop };
}
