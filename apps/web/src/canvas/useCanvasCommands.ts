/**
 * What commands ask of the canvas (issue 39: out of Canvas): `env.canvas` fits, finds the centre,
 * focuses nodes and opens the node search, for as long as the canvas is mounted.
 */
import { useEffect, type RefObject } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import { useApp } from '../store/store';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { env } from '../commands/env';
import { assumedActorsOf, drawnNodeId } from '../model/assumedActors';
import { focusViewport, readableFit } from './readableFit';

export function useCanvasCommands(
  rf: ReactFlowInstance<DesignNode, DesignEdge>,
  box: RefObject<HTMLDivElement | null>,
  moved: (m: boolean) => void,
  openSearch: () => void,
): void {
  useEffect(() => {
    env.canvas = {
      fitView: (whole) => {
        const el = box.current;
        if (el) readableFit(rf, { width: el.clientWidth, height: el.clientHeight }, whole);
      },
      centre: () => {
        const el = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
        if (!el) return { x: 0, y: 0 };
        return rf.screenToFlowPosition({ x: el.left + el.width / 2 - 95, y: el.top + el.height / 2 - 38 });
      },
      focus: (ids) => {
        const el = box.current;
        // an assumed publisher is drawn folded into the node it publishes to
        const actors = assumedActorsOf(useApp.getState().design);
        const known = [...new Set(ids.map((id) => drawnNodeId(actors, id)))].filter((id) => rf.getInternalNode(id));
        if (!known.length) return;
        useApp.getState().select([...known]);
        moved(true);
        if (el)
          void rf.setViewport(
            focusViewport(rf.getNodesBounds(known), { width: el.clientWidth, height: el.clientHeight }),
          );
      },
      openSearch,
    };
    return () => {
      env.canvas = undefined;
    };
  }, [rf]);
}
