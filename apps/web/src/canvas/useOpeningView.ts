/**
 * The canvas's opening view (issue 39: out of Canvas): the readable fit, on a fit request and
 * when the canvas changes size while the user has not moved the view.
 */
import { useCallback, useEffect, useRef, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { readableViewport } from './readableFit';
import { OVERVIEW_MIN_NODES, OVERVIEW_ZOOM } from './overviewModel';

export interface OpeningViewInputs {
  readonly rf: ReactFlowInstance<DesignNode, DesignEdge>;
  readonly box: RefObject<HTMLDivElement | null>;
  readonly fitRequest: number;
  /** the overview is on now (read when the fit runs) */
  readonly overviewNow: RefObject<boolean>;
  readonly setPreOverview: Dispatch<SetStateAction<boolean>>;
  readonly setFitted: Dispatch<SetStateAction<number>>;
  /** the minimap shows: the view was moved, or it opened on a part of the design (the minimap shows the rest) */
  readonly setMapShown: Dispatch<SetStateAction<boolean>>;
}

/** `moved(m)`: whether the user has moved the view; `openingView()`: back to the readable fit. */
export function useOpeningView({
  rf,
  box,
  fitRequest,
  overviewNow,
  setPreOverview,
  setFitted,
  setMapShown,
}: OpeningViewInputs) {
  /** the user has panned or zoomed since the opening view: a resize then keeps their view */
  const userMoved = useRef(false);
  const moved = useCallback((m: boolean) => {
    userMoved.current = m;
    setMapShown(m);
  }, []);
  const openingView = useCallback(() => {
    const el = box.current;
    moved(false);
    if (!el) return;
    const v = readableViewport(rf, { width: el.clientWidth, height: el.clientHeight });
    if (!v) return;
    setMapShown(!v.whole);
    if (v.zoom < OVERVIEW_ZOOM && rf.getNodes().length >= OVERVIEW_MIN_NODES && !overviewNow.current) {
      setPreOverview(true);
      requestAnimationFrame(() => {
        void rf.setViewport(v);
        setPreOverview(false);
      });
    } else void rf.setViewport(v);
  }, [rf]);
  useEffect(() => {
    if (!fitRequest) return;
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        openingView();
        setFitted(fitRequest);
      }),
    );
  }, [fitRequest, openingView]);
  // the opening view again when the canvas changes size and the user has not moved it (a notice bar appears
  // above it, the bottom panel is resized): the canvas shrank under a fitted design and the minimap covered its corner
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let raf = 0;
    const ro = new ResizeObserver(() => {
      if (userMoved.current || raf) return;
      raf = requestAnimationFrame(() => {
        raf = 0;
        openingView();
      });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      cancelAnimationFrame(raf);
    };
  }, [openingView]);
  return { moved, openingView };
}
