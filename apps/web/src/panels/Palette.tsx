import type { PaletteItem } from '../model/designEdit';
import { addNode } from '../model/designEdit';
import { PALETTE_MIME } from '../canvas/Canvas';
import { EXCHANGE_LOOK, QUEUE_LOOK } from '../canvas/nodes';
import { useApp } from '../store/store';
import { env } from '../commands/env';

const ITEMS: Array<{ item: PaletteItem; label: string; testid: string; glyph: string; color: string }> = [
  ...(['direct', 'fanout', 'topic', 'headers', 'x-delayed-message'] as const).map((t) => ({
    item: { kind: 'exchange' as const, type: t },
    label: `${EXCHANGE_LOOK[t].label} exchange`,
    testid: `palette-exchange-${t}`,
    glyph: EXCHANGE_LOOK[t].glyph,
    color: EXCHANGE_LOOK[t].color,
  })),
  ...(['classic', 'quorum', 'stream'] as const).map((t) => ({
    item: { kind: 'queue' as const, type: t },
    label: QUEUE_LOOK[t].label,
    testid: `palette-queue-${t}`,
    glyph: QUEUE_LOOK[t].glyph,
    color: QUEUE_LOOK[t].color,
  })),
  { item: { kind: 'consumer' }, label: 'consumer', testid: 'palette-consumer', glyph: '⚙', color: '#10b981' },
  { item: { kind: 'publisher' }, label: 'publisher', testid: 'palette-publisher', glyph: '✉', color: '#0ea5e9' },
];

/** Drag onto the canvas, or press Enter / click to drop at the centre of the view. */
export function Palette() {
  const add = (item: PaletteItem) => {
    const s = useApp.getState();
    const r = addNode(s.design, item, env.canvas?.centre() ?? { x: 0, y: 0 });
    s.setDesign(r.design);
    s.select([r.nodeId]);
  };
  return (
    <aside
      data-testid="palette"
      aria-label="Palette"
      className="flex w-40 shrink-0 flex-col gap-1 border-r border-slate-800 bg-slate-900 p-2"
    >
      <div className="px-1 pb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-400">Palette</div>
      {ITEMS.map((it) => (
        <button
          key={it.testid}
          type="button"
          draggable
          data-testid={it.testid}
          title={`Drag onto the canvas (or press Enter) to add a ${it.label}`}
          onDragStart={(e) => {
            e.dataTransfer.setData(PALETTE_MIME, JSON.stringify(it.item));
            e.dataTransfer.effectAllowed = 'copy';
          }}
          onClick={() => add(it.item)}
          className="flex cursor-grab items-center gap-2 rounded-md border border-slate-700 bg-slate-800 px-2 py-1.5 text-left text-xs text-slate-200 hover:border-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
        >
          <span
            className="flex h-5 w-5 shrink-0 items-center justify-center rounded text-[11px] font-bold text-white"
            style={{ background: it.color }}
          >
            {it.glyph}
          </span>
          {it.label}
        </button>
      ))}
      <div className="mt-auto space-y-1 px-1 text-[10px] leading-snug text-slate-500">
        <div>
          Connect handles: exchange→queue binds; queue→exchange sets the DLX; queue→consumer attaches; consumer→exchange
          republishes; the orange handle sets an alternate exchange.
        </div>
      </div>
    </aside>
  );
}
