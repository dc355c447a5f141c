import { useApp } from '../store/store';
import { allCommands, runCommand } from '../commands/registry';
import { env } from '../commands/env';

/** Buttons generated from the command registry (same objects the shortcuts use). */
export function Toolbar() {
  useApp((s) => s.past.length + s.future.length * 1000 + s.selected.length * 1e6); // re-render on what `enabled` reads
  const state = useApp.getState();
  const cmds = allCommands().filter((c) => c.group === 'edit' || c.group === 'view');
  return (
    <div role="toolbar" aria-label="Edit" data-testid="toolbar" className="flex items-center gap-1">
      {cmds.map((c) => {
        const enabled = !c.enabled || c.enabled(state);
        return (
          <button
            key={c.id}
            type="button"
            data-testid={`cmd-${c.id}`}
            disabled={!enabled}
            title={`${c.label}${c.shortcut ? ` (${c.shortcut})` : ''}`}
            aria-label={c.label}
            onClick={() => runCommand(c.id, env)}
            className="flex h-7 min-w-7 items-center justify-center rounded px-1.5 text-sm text-slate-200 hover:bg-slate-700 disabled:opacity-35 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
          >
            {c.icon ? <span aria-hidden className="mr-1">{c.icon}</span> : null}
            <span className="text-xs">{c.label}</span>
          </button>
        );
      })}
    </div>
  );
}
