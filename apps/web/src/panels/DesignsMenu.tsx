import { useState } from 'react';
import { useApp } from '../store/store';
import {
  deleteStoredDesign,
  duplicateStoredDesign,
  openStoredDesign,
  renameStoredDesign,
  type LibraryResult,
} from '../store/designLibrary';
import type { DesignEntry } from '../store/persistence';
import { runCommand } from '../commands/registry';
import { env } from '../commands/env';
import { ToolbarMenu } from './ToolbarMenu';

const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** The named designs kept in this browser: open, rename, duplicate, delete, or start a blank one. */
export function DesignsMenu() {
  const designs = useApp((s) => s.designs);
  const docId = useApp((s) => s.docId);
  const report = async (asked: Promise<LibraryResult>) => {
    const r = await asked;
    if (!r.ok) useApp.getState().notify(r.error, 'error');
    return r.ok;
  };
  return (
    <ToolbarMenu
      label={
        <>
          My designs <span className="rounded-full bg-slate-700 px-1.5 text-[11px]">{designs.length}</span>
        </>
      }
      toggleTestId="designs-toggle"
      menuTestId="designs-menu"
      ariaLabel="My designs"
    >
      {(close) => (
        <>
          <div className="mb-1 flex items-center justify-between">
            <span className="font-semibold text-slate-300">Kept in this browser</span>
            <button
              type="button"
              data-testid="designs-new"
              onClick={() => {
                runCommand('newDesign', env);
                close();
              }}
              className="rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600"
            >
              New blank design
            </button>
          </div>
          {designs.length === 0 && (
            <div className="py-2 text-slate-500">Nothing stored yet: designs are kept here as you edit them.</div>
          )}
          <ul className="max-h-80 space-y-0.5 overflow-auto">
            {designs.map((d) => (
              <DesignRow
                key={d.id}
                entry={d}
                current={d.id === docId}
                onOpen={async () => {
                  if (await report(openStoredDesign(useApp, d.id))) close();
                }}
                onRename={(name) => report(renameStoredDesign(useApp, d.id, name))}
                onDuplicate={() => void report(duplicateStoredDesign(useApp, d.id))}
                onDelete={() => void report(deleteStoredDesign(useApp, d.id))}
              />
            ))}
          </ul>
          <div className="mt-1 text-[11px] text-slate-500">
            Opening a template, a file or a blank canvas keeps the open design here; Ctrl+Z goes back to it.
          </div>
        </>
      )}
    </ToolbarMenu>
  );
}

function DesignRow({
  entry,
  current,
  onOpen,
  onRename,
  onDuplicate,
  onDelete,
}: {
  entry: DesignEntry;
  current: boolean;
  onOpen: () => void;
  onRename: (name: string) => Promise<boolean>;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(entry.name);
  const [confirming, setConfirming] = useState(false);
  const btn = 'rounded px-1.5 py-0.5 text-slate-300 hover:bg-slate-700 disabled:opacity-35';
  return (
    <li
      data-testid="design-row"
      data-id={entry.id}
      data-current={current ? 'true' : undefined}
      className={`flex items-center gap-1 rounded px-1 py-0.5 ${current ? 'bg-sky-950/60' : 'hover:bg-slate-800'}`}
    >
      {renaming ? (
        <form
          className="flex min-w-0 flex-1 gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            void onRename(name).then((ok) => ok && setRenaming(false));
          }}
        >
          <input
            aria-label="New name"
            data-testid="design-rename-input"
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="min-w-0 flex-1 rounded border border-slate-600 bg-slate-950 px-1"
          />
          <button type="submit" data-testid="design-rename-save" className={btn}>
            Save
          </button>
        </form>
      ) : (
        <button
          type="button"
          data-testid="design-open"
          onClick={onOpen}
          title={current ? 'open now' : 'Open this design'}
          className="min-w-0 flex-1 truncate text-left text-slate-100"
        >
          {entry.name || '(unnamed)'}
          <span className="ml-2 text-[11px] text-slate-500">{current ? 'open' : when(entry.updatedAt)}</span>
        </button>
      )}
      {confirming ? (
        <>
          <span className="text-amber-300">Delete?</span>
          <button
            type="button"
            data-testid="design-delete-confirm"
            onClick={onDelete}
            className={`${btn} text-red-300`}
          >
            Yes
          </button>
          <button type="button" onClick={() => setConfirming(false)} className={btn}>
            No
          </button>
        </>
      ) : (
        <>
          {!renaming && (
            <button
              type="button"
              data-testid="design-rename"
              onClick={() => (setName(entry.name), setRenaming(true))}
              className={btn}
            >
              Rename
            </button>
          )}
          <button type="button" data-testid="design-duplicate" onClick={onDuplicate} className={btn}>
            Duplicate
          </button>
          <button
            type="button"
            data-testid="design-delete"
            disabled={current}
            title={current ? 'This design is open: open another one to delete it' : 'Delete this design'}
            onClick={() => setConfirming(true)}
            className={btn}
          >
            Delete
          </button>
        </>
      )}
    </li>
  );
}
