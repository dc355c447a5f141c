import { useEffect, useRef } from 'react';
import { useStoreApi } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { drawOverview } from './overviewDraw';
import type { OverviewModel } from './overviewModel';

/**
 * The overview canvas (semantic zoom, overviewModel.ts). It redraws when the view moves (React
 * Flow's store, read outside React: a pan re-renders nothing) or the model changes, once per frame
 * at most. `box` gets `data-drawn` (the nodes drawn) for the canvas bench, and `data-group-labels`
 * (the group labels on screen) for the flows.
 */
export function OverviewLayer({ model, box }: { model: OverviewModel; box: React.RefObject<HTMLDivElement | null> }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const store = useStoreApi<DesignNode, DesignEdge>();
  useEffect(() => {
    const canvas = ref.current!;
    // drawn at once on the CPU: deferred, the overview's thousands of paths were rasterized in the compositor's
    // commit, a task of 0.1-0.27 s per redraw (issue 41's file opened and reloaded); drawn here it is a few ms
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    let raf = 0;
    let size = { w: canvas.clientWidth, h: canvas.clientHeight };
    // a pan only moves a picture drawn once: the view and half its size around it, drawn at this zoom, blitted
    // at the pan's offset until the pan leaves it (10,000 nodes and their edges redrawn per frame dragged at 20 fps)
    const picture = document.createElement('canvas');
    const pctx = picture.getContext('2d', { willReadFrequently: true })!;
    let drawn: { tx: number; ty: number; zoom: number; w: number; h: number; dpr: number; at: number[] } | null = null;
    let direct: { tx: number; ty: number; zoom: number; w: number; h: number; dpr: number } | null = null;
    const blit = (tx: number, ty: number, dpr: number): number[] => {
      const d = drawn!;
      const dx = tx - d.tx,
        dy = ty - d.ty;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(picture, Math.round((dx - d.w / 2) * dpr), Math.round((dy - d.h / 2) * dpr));
      return [d.at[0]! + dx, d.at[1]! + dy, d.at[2]! + dx, d.at[3]! + dy];
    };
    const draw = () => {
      raf = 0;
      const dpr = window.devicePixelRatio || 1;
      if (canvas.width !== Math.round(size.w * dpr) || canvas.height !== Math.round(size.h * dpr)) {
        canvas.width = Math.round(size.w * dpr);
        canvas.height = Math.round(size.h * dpr);
      }
      const [tx, ty, zoom] = store.getState().transform;
      const { w, h } = size;
      const same = (d: { zoom: number; w: number; h: number; dpr: number } | null) =>
        !!d && d.zoom === zoom && d.w === w && d.h === h && d.dpr === dpr;
      let at: number[];
      if (same(drawn) && Math.abs(tx - drawn!.tx) <= w / 2 && Math.abs(ty - drawn!.ty) <= h / 2) at = blit(tx, ty, dpr);
      else if (same(direct) && (tx !== direct!.tx || ty !== direct!.ty)) {
        // a pan began: the picture, once, then blits
        picture.width = Math.round(2 * w * dpr);
        picture.height = Math.round(2 * h * dpr);
        const pat = drawOverview(pctx, model, [tx + w / 2, ty + h / 2, zoom], 2 * w, 2 * h, dpr).bounds;
        drawn = { tx, ty, zoom, w, h, dpr, at: [pat[0] - w / 2, pat[1] - h / 2, pat[2] - w / 2, pat[3] - h / 2] };
        at = blit(tx, ty, dpr);
      } else {
        // a first frame or a zoom: drawn straight on the canvas (a picture four times the view cost the opening frame)
        const d = drawOverview(ctx, model, [tx, ty, zoom], w, h, dpr);
        at = d.bounds;
        // the group labels on screen, for the flows: their text and smallest size
        box.current?.setAttribute('data-group-labels', d.labels.map((l) => l.text).join('\n'));
        box.current?.setAttribute('data-group-label-px', String(Math.min(...d.labels.map((l) => l.px))));
        direct = { tx, ty, zoom, w, h, dpr };
        drawn = null;
      }
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
      box.current?.removeAttribute('data-group-labels');
      box.current?.removeAttribute('data-group-label-px');
    };
  }, [model, store, box]);
  return (
    <canvas
      ref={ref}
      data-testid="canvas-overview"
      className="pointer-events-none absolute inset-0 z-[3] h-full w-full"
    />
  );
}
