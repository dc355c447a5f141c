import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, Position, type EdgeProps } from '@xyflow/react';
import type { DesignEdge as DesignEdgeT } from '../graph/flowTypes';
import { cubicAt, cubicPath, edgeCubic, type Side } from '../graph/bezier';
import type { EdgeKind } from '../model/edgeIds';

const SIDE: Record<Position, Side> = { left: 'left', right: 'right', top: 'top', bottom: 'bottom' };

export const EDGE_STYLE: Record<EdgeKind, { stroke: string; dash?: string; width: number; text: string }> = {
  binding: { stroke: '#94a3b8', width: 1.6, text: 'text-slate-200' },
  deadLetter: { stroke: '#f43f5e', dash: '7 4', width: 2, text: 'text-rose-200' },
  republish: { stroke: '#a78bfa', dash: '2 4', width: 2, text: 'text-violet-200' },
  alternate: { stroke: '#fb923c', dash: '10 4 2 4', width: 1.8, text: 'text-orange-200' },
  consume: { stroke: '#10b981', width: 1.4, text: 'text-emerald-200' },
  publish: { stroke: '#38bdf8', width: 1.6, text: 'text-sky-200' },
};

export const DesignEdge = memo(function DesignEdge(props: EdgeProps<DesignEdgeT>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, selected, id, markerEnd } = props;
  const c = edgeCubic(sourceX, sourceY, SIDE[sourcePosition], targetX, targetY, SIDE[targetPosition]);
  const kind = data?.kind ?? 'binding';
  const look = EDGE_STYLE[kind];
  const mid = { x: 0, y: 0 };
  cubicAt(c, data?.labelT ?? 0.5, mid);
  mid.y += data?.labelDy ?? 0;
  const stroke = data?.onPath ? '#fbbf24' : selected ? '#f8fafc' : look.stroke;
  return (
    <>
      <BaseEdge
        id={id}
        path={cubicPath(c)}
        markerEnd={markerEnd}
        style={{ stroke, strokeWidth: data?.onPath ? 3 : look.width, strokeDasharray: look.dash }}
      />
      {data?.label ? (
        <EdgeLabelRenderer>
          <div
            data-testid={`edge-label-${kind}`}
            data-edge-label={id}
            data-policy={data.policy}
            data-crowded={data.labelCrowded ? 'true' : undefined}
            title={data.policy ? `set by policy ${data.policy}` : undefined}
            className={`edge-label nodrag nopan pointer-events-auto absolute rounded bg-slate-950/85 px-1 text-[length:calc(11px*min(var(--ts,1),1.4))] ${look.text}`}
            style={{ transform: `translate(-50%, -50%) translate(${mid.x}px, ${mid.y}px)` }}
          >
            {data.label}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});

export const edgeTypes = { design: DesignEdge };
