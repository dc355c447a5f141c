import { useApp } from '../store/store';
import { BOTTOM_MIN, panelHeightFor } from '../store/uiSlice';

/** The canvas keeps at least this much height when the bottom panel grows. */
const CANVAS_MIN = 160;
const clamp = (px: number) => Math.max(BOTTOM_MIN, Math.min(px, window.innerHeight - 44 - CANVAS_MIN));

/** Drag (or arrow keys) to resize the simulation panel; the height is remembered. */
export function BottomResizer() {
  const height = useApp((s) => s.bottomHeight);
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startY = e.clientY;
    // from the height shown (Rehearse and Tune open taller)
    const { bottomTab, bottomHeight } = useApp.getState();
    const startH = panelHeightFor(bottomTab, bottomHeight, window.innerHeight);
    const el = e.currentTarget;
    el.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent) => useApp.getState().setBottomHeight(clamp(startH + startY - ev.clientY));
    const up = () => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
  };
  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the simulation panel"
      aria-valuenow={height}
      aria-valuemin={BOTTOM_MIN}
      tabIndex={0}
      data-testid="bottom-resizer"
      onPointerDown={onPointerDown}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 60 : 20;
        if (e.key === 'ArrowUp') useApp.getState().setBottomHeight(clamp(height + step));
        else if (e.key === 'ArrowDown') useApp.getState().setBottomHeight(clamp(height - step));
        else return;
        e.preventDefault();
      }}
      className="h-1.5 shrink-0 cursor-row-resize bg-slate-800 hover:bg-sky-700 focus:bg-sky-600 focus:outline-none"
    />
  );
}
