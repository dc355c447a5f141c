import { useApp } from '../store/store';
import { allCommands, runCommand } from '../commands/registry';
import { env } from '../commands/env';
import { ToolbarMenu } from './ToolbarMenu';

/** Buttons generated from the command registry (same objects the shortcuts use). */
export function Toolbar() {
  useApp((s) => s.past.length + s.future.length * 1000 + s.selected.length * 1e6); // re-render on what `enabled` reads
  const state = useApp.getState();
  const cmds = allCommands().filter((c) => c.group === 'edit' || c.group === 'view');
  return (
    <div role="toolbar" aria-label="Edit" data-testid="toolbar" className="relative flex items-center gap-1">
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
            {c.icon ? (
              <span aria-hidden className="min-[1400px]:mr-1">
                {c.icon}
              </span>
            ) : null}
            {/* below 1400 px a command with an icon shows the icon only (its name in the tooltip): the design's name keeps its room */}
            <span className={`whitespace-nowrap text-xs ${c.icon ? 'hidden min-[1400px]:inline' : ''}`}>{c.label}</span>
          </button>
        );
      })}
      {/* a toolbar menu: Escape or a click outside closes it */}
      <ToolbarMenu label="Keys" toggleTestId="shortcuts-toggle" menuTestId="shortcuts" ariaLabel="Keyboard shortcuts">
        {() => (
          <>
            <table className="w-full">
              <tbody>
                {allCommands()
                  .filter((c) => c.shortcut)
                  .map((c) => (
                    <tr key={c.id}>
                      <td className="py-0.5 text-slate-300">{c.label}</td>
                      <td className="py-0.5 text-right font-mono text-slate-400">{c.shortcut}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
            <div className="mt-1 text-[10px] text-slate-500">
              Tab moves through the palette, the toolbar and the nodes; Enter on a palette item adds it.
            </div>
          </>
        )}
      </ToolbarMenu>
    </div>
  );
}
