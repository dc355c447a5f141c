/**
 * A toolbar button that opens a panel below it (My designs, Open / Import): one open at a time
 * per button, closed by a click outside it or Escape. The panel's content gets `close`.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function ToolbarMenu({
  label,
  toggleTestId,
  menuTestId,
  ariaLabel,
  panelClassName = '',
  children,
}: {
  label: ReactNode;
  toggleTestId: string;
  menuTestId: string;
  ariaLabel: string;
  /** classes added to the panel's own (layout of its content) */
  panelClassName?: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    // capture: the canvas's pan handler stops a mousedown from bubbling, so a click on the canvas never reached a bubbling listener
    window.addEventListener('mousedown', close, true);
    window.addEventListener('keydown', esc);
    return () => {
      window.removeEventListener('mousedown', close, true);
      window.removeEventListener('keydown', esc);
    };
  }, [open]);
  return (
    <div ref={box} className="relative">
      <button
        type="button"
        data-testid={toggleTestId}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        className="flex h-7 items-center gap-1 rounded px-2 text-xs text-slate-300 hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
      >
        {label}
      </button>
      {open && (
        <div
          data-testid={menuTestId}
          role="dialog"
          aria-label={ariaLabel}
          className={`absolute left-0 top-9 z-50 w-[26rem] rounded border border-slate-700 bg-slate-900 p-2 text-xs shadow-xl ${panelClassName}`.trimEnd()}
        >
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
