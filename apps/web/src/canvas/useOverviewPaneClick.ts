/**
 * A click on the overview (issue 39: out of Canvas) zooms into names: a node (selected), else the
 * group under it, whole when it fits at a zoom its names read at, else around the point clicked.
 */
import { useCallback, type MouseEvent, type RefObject } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import { useApp } from '../store/store';
import { NODE_H, NODE_W, type DesignEdge, type DesignNode } from '../graph/flowTypes';
import { focusViewport } from './readableFit';
import { overviewHit, type OverviewModel } from './overviewModel';

/** a zoom at which a face's name reads whole at 9 px and more (graph/wrapLayout.ts's READABLE_ZOOM, with room) */
const NAMES_ZOOM = 0.75;

export function useOverviewPaneClick(
  overviewOf: OverviewModel | null,
  rf: ReactFlowInstance<DesignNode, DesignEdge>,
  box: RefObject<HTMLDivElement | null>,
) {
  return useCallback(
    (e: MouseEvent) => {
      if (!overviewOf) return;
      const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const hit = overviewHit(overviewOf, at);
      if (hit.node) {
        useApp.getState().select([hit.node.id]);
        void rf.setCenter(hit.node.x + NODE_W / 2, hit.node.y + NODE_H / 2, { zoom: NAMES_ZOOM });
        return;
      }
      const g = hit.group;
      const el = box.current;
      if (g && g.level === 'leaf' && el) {
        const v = focusViewport(
          { x: g.x, y: g.y, width: g.w, height: g.h },
          { width: el.clientWidth, height: el.clientHeight },
        );
        if (v.zoom >= NAMES_ZOOM) return void rf.setViewport(v);
      }
      if (g) void rf.setCenter(at.x, at.y, { zoom: NAMES_ZOOM });
    },
    [overviewOf, rf],
  );
}
