import { useEffect, useRef } from 'react';
import { useStoreApi } from '@xyflow/react';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { TokenOverlay } from './TokenOverlay';
import { player } from '../sim/player';
import { useApp } from '../store/store';

/** Mounts the one token canvas and its one rAF loop; edges come in through a ref, not renders. */
export function OverlayHost({ edges }: { edges: DesignEdge[] }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const store = useStoreApi<DesignNode, DesignEdge>();
  const sides = useRef(new Map<string, 'out' | 'ae'>());
  const overlayRef = useRef<TokenOverlay | null>(null);

  useEffect(() => {
    const m = new Map<string, 'out' | 'ae'>();
    for (const e of edges) m.set(`${e.source}>${e.target}`, e.sourceHandle === 'ae' ? 'ae' : 'out');
    sides.current = m;
    overlayRef.current?.invalidate();
  }, [edges]);

  useEffect(() => {
    const canvas = ref.current!;
    const overlay = new TokenOverlay(canvas, player, {
      transform: () => store.getState().transform,
      nodePos: (id) => store.getState().nodeLookup.get(id)?.internals.positionAbsolute,
      edgeSide: (from, to) => {
        const s = sides.current.get(`${from}>${to}`);
        if (s) return s;
        if (sides.current.has(`${to}>${from}`)) return 'reverse';
        return undefined;
      },
      inspected: () => useApp.getState().inspectedMsg,
      divergence: () => useApp.getState().divergenceNode,
    });
    overlay.start();
    overlayRef.current = overlay;
    (window as unknown as { __overlay?: TokenOverlay }).__overlay = overlay;
    return () => overlay.stop();
  }, [store]);

  // its own compositing layer: redrawing tokens must not repaint the 300 nodes underneath
  return (
    <canvas
      ref={ref}
      data-testid="token-overlay"
      style={{ willChange: 'transform' }}
      className="pointer-events-none absolute inset-0 z-[4] h-full w-full"
    />
  );
}
