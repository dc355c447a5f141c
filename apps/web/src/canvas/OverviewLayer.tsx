import { useEffect, useRef } from 'react';
import { useStoreApi } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { drawOverview } from './overviewDraw';
import type { OverviewModel } from './overviewModel';

/**
 * The overview canvas (semantic zoom, overviewModel.ts). It redraws when the view moves (React
 * Flow's store, read outside React: a pan re-renders nothing) or the model changes, once per frame
 * at most. `box` gets `data-drawn` (the nodes drawn) for the canvas bench.
 */
export function OverviewLayer({ model, box }: { model: OverviewModel; box: React.RefObject<HTMLDivElement | null> }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const store = useStoreApi<DesignNode, DesignEdge>();
  useEffect(() => {
    const canvas = ref.current!;
    const ctx = canvas.getContext('2d')!;
    let raf = 0;
    let size = { w: canvas.clientWidth, h: canvas.clientHeight };
    const draw = () => {
      raf = 0;
      const dpr = window.devicePixelRatio || 1;
      if (canvas.width !== Math.round(size.w * dpr) || canvas.height !== Math.round(size.h * dpr)) {
        canvas.width = Math.round(size.w * dpr);
        canvas.height = Math.round(size.h * dpr);
      }
      const at = drawOverview(ctx, model, store.getState().transform, size.w, size.h, dpr);
      box.current?.setAttribute('data-drawn', String(model.nodes.length));
      box.current?.setAttribute('data-drawn-bounds', at.map((v) => Math.round(v)).join(','));
    };
    const schedule = () => {
      if (!raf) raf = requestAnimationFrame(draw);
    };
    const ro = new ResizeObserver(() => {
      size = { w: canvas.clientWidth, h: canvas.clientHeight };
      schedule();
    });
    ro.observe(canvas);
    let last = store.getState().transform;
    const unsub = store.subscribe((s) => {
      if (s.transform !== last) {
        last = s.transform;
        schedule();
      }
    });
    schedule();
    return () => {
      unsub();
      ro.disconnect();
      if (raf) cancelAnimationFrame(raf);
      box.current?.removeAttribute('data-drawn');
      box.current?.removeAttribute('data-drawn-bounds');
    };
  }, [model, store, box]);
  return <canvas ref={ref} data-testid="canvas-overview" className="pointer-events-none absolute inset-0 z-[3] h-full w-full" />;
}
