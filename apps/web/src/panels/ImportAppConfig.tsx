/**
 * Open an application's retry configuration (application.yml/.properties, Java, C#, Python,
 * JavaScript/TypeScript, Rascal JSON; a .env or a Kubernetes/Helm YAML as its environment),
 * several files at once, with a definitions JSON among them for the topology: the core's
 * import-app reader (the CLI's), run in the browser.
 */
import { useRef, useState } from 'react';
import {
  APP_NOTES_HEADING,
  AppConfigFailure,
  describeApp,
  importAppConfig,
  isAppConfigFile,
  type AppFile,
} from '@retry-studio/topology-core/appconfig';
import { useApp } from '../store/store';
import { layoutDesign } from '../graph/autoLayout';

/** The CLI's summary with its notes block (stand-in queues, keys read another way) on top: seen without scrolling */
export function notModelledFirst(lines: readonly string[]): string[] {
  const at = lines.indexOf(APP_NOTES_HEADING);
  if (at < 0) return [...lines];
  const end = lines.findIndex((l, i) => i > at && !l.startsWith('  '));
  const block = lines.slice(at, end < 0 ? lines.length : end);
  return [...block, ...lines.slice(0, at), ...(end < 0 ? [] : lines.slice(end))];
}

/** Reads the files (a .json among them is the definitions); an error names the file and line. */
export function readAppFiles(files: readonly AppFile[]): { error: string } | { open: () => Promise<void> } {
  // a JSON is the definitions, unless it is an application's own configuration (Rascal's vhosts map)
  const json = files.filter((f) => /\.json$/i.test(f.name) && !isAppConfigFile(f.name, f.text));
  const config = files.filter((f) => !json.includes(f));
  if (json.length > 1) return { error: `one definitions JSON at a time, got ${json.map((f) => f.name).join(', ')}` };
  if (config.length === 0)
    return {
      error:
        'no application configuration file among them (application.yml, .properties, .java, .cs, .py, .js, .ts, a Rascal JSON)',
    };
  try {
    const app = importAppConfig(config, json[0] ? { definitions: json[0] } : {});
    return {
      open: async () => {
        const design = { ...app.design, layout: await layoutDesign(app.design) };
        useApp.getState().loadDesign(design);
        useApp.getState().setView('designer');
        useApp.getState().requestFit();
        // what the CLI's import-app prints, in the core's words: each consumer's journey and what is a stand-in or not modelled
        useApp.getState().setImportNotes({
          design: design.name,
          heading: `Imported “${design.name}” as retry-studio import-app reads it:`,
          lines: notModelledFirst(describeApp(app).trimEnd().split('\n')),
        });
        useApp
          .getState()
          .notify(
            `Imported ${app.frameworks.join(', ')} configuration: ${design.consumers.length} consumers, ${design.topology.queues.length} queues${app.notes.length ? `; ${app.notes.length} lines not modelled (listed above the canvas)` : ''}`,
          );
      },
    };
  } catch (e) {
    if (e instanceof AppConfigFailure) return { error: e.message };
    throw e;
  }
}

export function ImportAppConfig({ onOpened }: { onOpened?: () => void }) {
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="mt-2">
      <label className="mb-0.5 block text-[11px] text-slate-400" htmlFor="import-app-files">
        …or an application&apos;s retry configuration (Spring, MassTransit, NServiceBus, Celery; add a definitions JSON
        for the topology)
      </label>
      <input
        id="import-app-files"
        ref={input}
        type="file"
        multiple
        accept=".yml,.yaml,.properties,.env,.java,.kt,.cs,.py,.js,.mjs,.cjs,.ts,.json"
        data-testid="import-app-files"
        className="block w-full text-[11px] text-slate-400"
        onChange={async (e) => {
          const list = [...(e.target.files ?? [])];
          if (input.current) input.current.value = '';
          if (list.length === 0) return;
          const r = readAppFiles(await Promise.all(list.map(async (f) => ({ name: f.name, text: await f.text() }))));
          if ('error' in r) return setError(r.error);
          setError(undefined);
          await r.open();
          onOpened?.();
        }}
      />
      {error && (
        <div role="alert" data-testid="import-app-error" className="mt-1 font-mono text-[10px] text-red-400">
          {error}
        </div>
      )}
    </div>
  );
}
