/** Ready / unacked and rates of one queue node, from the live depths (renders nothing when off). */
import { memo } from 'react';
import { useApp } from '../store/store';
import { useOperate } from './operateStore';

const rate = (r: number) => (r >= 10 ? Math.round(r) : Math.round(r * 10) / 10);

export const DepthBadge = memo(function DepthBadge({ queue }: { queue: string }) {
  const prefix = useApp((s) => s.broker.prefix);
  const d = useOperate((s) => s.depths[prefix + queue]);
  const parking = useOperate((s) => s.roles[queue] === 'parking');
  if (!d) return null;
  const piling = d.ready > 0 && parking;
  return (
    <span
      data-testid="depth-badge"
      data-ready={d.ready}
      data-unacked={d.unacked}
      title={`ready ${d.ready}, unacked ${d.unacked}; publish ${rate(d.publishRate)}/s, deliver ${rate(d.deliverRate)}/s`}
      className={`absolute -top-2.5 right-1 rounded-full px-1.5 text-[length:calc(10px*var(--ts,1))] font-semibold shadow ${piling ? 'bg-rose-600 text-white' : d.ready > 0 ? 'bg-amber-500 text-slate-950' : 'bg-slate-600 text-slate-100'}`}
    >
      {d.ready}
      {d.unacked ? ` · ${d.unacked} unacked` : ''}
      {d.publishRate || d.deliverRate ? ` · ↑${rate(d.publishRate)} ↓${rate(d.deliverRate)}/s` : ''}
    </span>
  );
});
