import { useMemo, useState } from 'react';
import { useApp } from '../store/store';
import { buildTemplate, listTemplates, openTemplate, type TemplateInfo } from './templates';
import { coerceParam, statedFate } from '@retry-studio/topology-core/templates';
import { runCommand } from '../commands/registry';
import { env } from '../commands/env';

/** New users land here: every retry strategy with its explanation and parameters. */
export function TemplateGallery() {
  const templates = useMemo(() => listTemplates(), []);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div data-testid="template-gallery" className="min-h-0 flex-1 overflow-auto p-6">
      <div className="mx-auto max-w-6xl">
        <div className="mb-4 flex items-end justify-between">
          <div>
            <h1 className="text-xl font-semibold">Start from a retry strategy</h1>
            <p className="text-sm text-slate-400">
              Each template is a complete topology with its consumers’ behaviour. Pick one, tune its parameters, then
              simulate, lint and deploy it.
            </p>
          </div>
          <div className="flex gap-2">
            <button
              type="button"
              data-testid="gallery-blank"
              className="rounded border border-slate-600 px-3 py-1.5 text-xs hover:bg-slate-800"
              onClick={() => runCommand('newDesign', env)}
            >
              Blank canvas
            </button>
            {useApp.getState().design.topology.queues.length > 0 && (
              <button
                type="button"
                data-testid="gallery-back"
                className="rounded border border-slate-600 px-3 py-1.5 text-xs hover:bg-slate-800"
                onClick={() => useApp.getState().setView('designer')}
              >
                Back to my design
              </button>
            )}
          </div>
        </div>
        {!templates.length && (
          <p className="text-sm text-amber-300">The template registry is not in this build of topology-core yet.</p>
        )}
        <ul className="grid grid-cols-3 items-start gap-3">
          {templates.map((t) => (
            <li key={t.id}>
              <TemplateCard t={t} expanded={open === t.id} onToggle={() => setOpen(open === t.id ? null : t.id)} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function TemplateCard({ t, expanded, onToggle }: { t: TemplateInfo; expanded: boolean; onToggle: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<string[]>([]);
  /** the typed values as template parameters (an empty field means the default) */
  const params = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const p of t.params)
      if (values[p.name] !== undefined && values[p.name] !== '') out[p.name] = coerceParam(p, values[p.name]!);
    return out;
  }, [t.params, values]);
  // the explanation is built with the parameters as typed, so it tells what this design will do
  const built = useMemo(() => (expanded ? buildTemplate(t.id, params) : null), [expanded, t.id, params]);
  const explanation = built?.ok ? built.built.explanation : null;
  // the fate it states, from a run on the template's profile (the Inspector says it again for the profile chosen later)
  const fate = useMemo(() => (built?.ok ? statedFate(built.built.design) : undefined), [built]);
  const paramErrors = built && !built.ok ? built.errors.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`) : [];
  const use = () => {
    const r = openTemplate(t.id, params);
    if (!r.ok) setErrors(r.errors.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`));
  };
  return (
    <div
      data-testid="template-card"
      data-template={t.id}
      className="flex h-full flex-col rounded-lg border border-slate-700 bg-slate-900 p-3"
    >
      <div className="mb-1 flex items-start justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-100">{t.title}</h2>
        <span className="shrink-0 font-mono text-[10px] text-slate-500">{t.id}</span>
      </div>
      <p className="mb-2 flex-1 text-xs text-slate-300">{t.summary}</p>
      <div className="mb-2 flex flex-wrap gap-1 text-[10px]">
        {t.requires.map((r) => (
          <span key={r} className="rounded bg-pink-900/60 px-1.5 text-pink-200">
            needs {r}
          </span>
        ))}
        {t.profile !== '3.10' && (
          <span className="rounded bg-violet-900/60 px-1.5 text-violet-200">RabbitMQ {t.profile}</span>
        )}
        {t.runsOnStock310 && <span className="rounded bg-emerald-900/60 px-1.5 text-emerald-200">stock 3.10</span>}
      </div>
      {expanded && (
        <div className="mb-2 space-y-1.5 border-t border-slate-800 pt-2">
          {explanation && (
            <p data-testid="template-explanation" className="text-[11px] leading-snug text-slate-300">
              {explanation}
            </p>
          )}
          {fate && (
            <p
              data-testid="stated-fate"
              className={`text-[11px] leading-snug ${fate.contradicts ? 'text-amber-300' : 'text-slate-400'}`}
            >
              {fate.sentence}
            </p>
          )}
          {t.params.map((p) => (
            <label key={p.name} className="block text-[11px] text-slate-400">
              {p.label}
              {p.unit === 'ms' ? ' (ms)' : ''}
              {p.type === 'enum' ? (
                <select
                  className="mt-0.5 w-full rounded border border-slate-700 bg-slate-950 px-1 py-0.5 text-xs text-slate-100"
                  value={values[p.name] ?? String(p.default)}
                  onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
                >
                  {p.options?.map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              ) : (
                <input
                  data-testid={`param-${p.name}`}
                  className="mt-0.5 w-full rounded border border-slate-700 bg-slate-950 px-1 py-0.5 text-xs text-slate-100"
                  value={values[p.name] ?? (Array.isArray(p.default) ? p.default.join(',') : String(p.default))}
                  onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
                />
              )}
              {p.help && <span className="block text-[10px] text-slate-500">{p.help}</span>}
            </label>
          ))}
          {[...new Set([...paramErrors, ...errors])].map((e, i) => (
            <div key={i} role="alert" className="text-[11px] text-red-400">
              {e}
            </div>
          ))}
        </div>
      )}
      <div className="flex gap-2">
        <button
          type="button"
          data-testid="template-use"
          onClick={use}
          className="rounded bg-sky-700 px-2.5 py-1 text-xs font-medium hover:bg-sky-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300"
        >
          Use template
        </button>
        {
          <button
            type="button"
            data-testid="template-params"
            onClick={onToggle}
            aria-expanded={expanded}
            className="rounded border border-slate-600 px-2.5 py-1 text-xs hover:bg-slate-800"
          >
            {expanded ? 'Hide details' : `Explain & tune (${t.params.length})`}
          </button>
        }
      </div>
    </div>
  );
}
