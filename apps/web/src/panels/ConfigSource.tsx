/** Where a node read from an application's configuration came from: file:line, framework, and the settings that shaped it. */
import type { NodeSource } from '@retry-studio/topology-core/model';

export function ConfigSource({ source }: { source: NodeSource | undefined }) {
  if (!source) return null;
  return (
    <div
      data-testid="config-source"
      className="mb-1 rounded border border-sky-900 bg-sky-950/40 p-1 text-[11px] text-sky-200"
    >
      <div>
        From {source.framework}:{' '}
        <span className="font-mono" data-testid="config-source-at">{`${source.file}:${source.line}`}</span>
      </div>
      {source.settings && source.settings.length > 0 && (
        <ul className="mt-0.5 font-mono text-[10px] text-slate-300">
          {source.settings.map((s, i) => (
            <li key={i} title={s.cite ? `default, documented at ${s.cite}` : s.via}>
              {s.key} = {s.value}{' '}
              <span className="text-slate-500">
                {s.line === undefined
                  ? s.cite === undefined && s.via !== undefined
                    ? 'as told'
                    : 'default'
                  : s.file !== undefined
                    ? `${s.file}:${s.line}`
                    : `line ${s.line}`}
                {s.via !== undefined ? ` (${s.via})` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {(source.notes ?? []).map((n, i) => (
        <div key={i} className="mt-0.5 text-amber-300">
          {n.file !== undefined ? `${n.file}:` : 'line '}
          {n.line}: {n.text}
        </div>
      ))}
    </div>
  );
}
