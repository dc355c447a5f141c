/**
 * Open / Import, in the toolbar next to My designs: a file (a design, RabbitMQ definitions) or a
 * live vhost. The vhost import is the Operate tab's (one path): asked for here, done there.
 */
import { useEffect, useRef, useState } from 'react';
import { useApp } from '../store/store';
import { useOperate } from '../operate/operateStore';
import { vhostNamedBy } from '../broker/vhostNamedBy';
import { maskUrl } from '../broker/api';
import { ImportFile } from './ImportFile';

export function OpenMenu() {
  const [open, setOpen] = useState(false);
  const brokerUrl = useApp((s) => s.brokerUrl);
  const vhost = useOperate((s) => s.vhost);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', esc);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', esc);
    };
  }, [open]);
  const urlVhost = vhostNamedBy(brokerUrl);
  const importVhost = () => {
    // the Operate tab imports (it mounts with the designer view)
    useOperate.getState().set({ importAsked: true });
    useApp.getState().setView('designer');
    useApp.getState().setSideTab('operate');
    setOpen(false);
  };
  return (
    <div ref={box} className="relative">
      <button
        type="button"
        data-testid="open-toggle"
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        className="flex h-7 items-center gap-1 rounded px-2 text-xs text-slate-300 hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
      >
        Open / Import
      </button>
      {open && (
        <div data-testid="open-menu" role="dialog" aria-label="Open or import" className="absolute left-0 top-9 z-50 w-[26rem] space-y-3 rounded border border-slate-700 bg-slate-900 p-2 text-xs shadow-xl">
          <section>
            <div className="mb-1 font-semibold text-slate-300">A file: a Retry Studio design or RabbitMQ definitions JSON</div>
            <ImportFile onOpened={() => setOpen(false)} />
          </section>
          <section className="border-t border-slate-800 pt-2">
            <div className="mb-1 font-semibold text-slate-300">A live vhost</div>
            <label className="mb-1 block text-[11px] text-slate-400">
              Vhost (empty: the broker URL's)
              <input
                data-testid="open-vhost"
                value={vhost}
                placeholder={urlVhost}
                onChange={(e) => useOperate.getState().set({ vhost: e.target.value })}
                className="mt-0.5 w-full rounded border border-slate-700 bg-slate-950 px-2 py-1 font-mono text-[11px] text-slate-100"
              />
            </label>
            <div className="mb-1 truncate font-mono text-[10px] text-slate-500" title="the Broker tab's URL">
              on {maskUrl(brokerUrl)}
            </div>
            <button type="button" data-testid="open-import-vhost" onClick={importVhost} className="rounded bg-sky-700 px-2 py-1 font-medium hover:bg-sky-600">
              Import {vhost.trim() || urlVhost || 'the vhost'}
            </button>
          </section>
          <div className="text-[11px] text-slate-500">The open design stays in My designs; Ctrl+Z goes back to it.</div>
        </div>
      )}
    </div>
  );
}
