import { useMemo, useState } from 'react';
import { ExportOptionsError, validateExportOptions, type ExportOptions } from '@retry-studio/topology-core/io';
import { useApp } from '../store/store';
import { exportFormats, type ExportOptionName } from './exporters';
import { ImportFile } from './ImportFile';
import { downloadText } from './downloadText';

export function ExportPanel() {
  const design = useApp((s) => s.design);
  const formats = useMemo(() => exportFormats(), []);
  const [fmt, setFmt] = useState('design');
  const [copied, setCopied] = useState(false);
  const [optionText, setOptionText] = useState<Record<ExportOptionName, string>>({ vhost: '', cluster: '' });
  const current = formats.find((f) => f.id === fmt)!;
  // an empty input means "the format's default"
  const opts = useMemo((): ExportOptions => {
    const o: { -readonly [K in ExportOptionName]?: string } = {};
    for (const k of current.options) if (optionText[k] !== '') o[k] = optionText[k];
    return o;
  }, [current, optionText]);
  const optionErrors = useMemo(() => validateExportOptions(opts), [opts]);
  const text = useMemo((): string | null => {
    if (optionErrors.length > 0) return null;
    try {
      return current.render(design, opts);
    } catch (e) {
      return e instanceof ExportOptionsError ? null : `// could not export: ${(e as Error).message}`;
    }
  }, [current, design, opts, optionErrors]);

  const copy = async () => {
    if (text === null) return;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // clipboard permission refused (e.g. headless): fall back to a selection copy
      const ta = document.createElement('textarea');
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  const download = () => {
    if (text !== null) downloadText(current.filename(design), text);
  };

  return (
    <div data-testid="export-panel" className="flex flex-col gap-2 p-2 text-xs">
      <div role="tablist" aria-label="Export format" className="flex flex-wrap gap-1">
        {formats.map((f) => (
          <button
            key={f.id}
            type="button"
            role="tab"
            aria-selected={f.id === fmt}
            data-testid={`export-format-${f.id}`}
            onClick={() => setFmt(f.id)}
            className={`rounded px-2 py-0.5 ${f.id === fmt ? 'bg-sky-700 text-white' : 'bg-slate-800 text-slate-300 hover:bg-slate-700'}`}
          >
            {f.label}
          </button>
        ))}
      </div>
      {current.options.length > 0 && (
        <div className="flex flex-wrap gap-2" data-testid="export-options">
          {current.options.map((k) => (
            <label key={k} className="flex items-center gap-1 text-slate-400">
              {OPTION_LABEL[k]}
              <input
                data-testid={`export-option-${k}`}
                value={optionText[k]}
                placeholder={OPTION_PLACEHOLDER[k]}
                onChange={(e) => setOptionText({ ...optionText, [k]: e.target.value })}
                className="w-32 rounded border border-slate-700 bg-slate-950 px-1 font-mono text-[11px] text-slate-200"
              />
            </label>
          ))}
        </div>
      )}
      {optionErrors.map((e) => (
        <div key={e.path} role="alert" data-testid="export-option-error" className="font-mono text-[11px] text-red-400">
          {OPTION_LABEL[e.path as ExportOptionName] ?? e.path}: {e.message}
        </div>
      ))}
      {text === null ? null : (
        <>
          <div className="flex gap-2">
            <button
              type="button"
              data-testid="export-copy"
              onClick={copy}
              className="rounded bg-slate-700 px-2 py-1 hover:bg-slate-600"
            >
              {copied ? 'Copied ✓' : 'Copy'}
            </button>
            <button
              type="button"
              data-testid="export-download"
              onClick={download}
              className="rounded bg-slate-700 px-2 py-1 hover:bg-slate-600"
            >
              Download {current.filename(design)}
            </button>
          </div>
          <pre
            data-testid="export-text"
            className="max-h-72 overflow-auto rounded bg-slate-950 p-2 font-mono text-[10px] leading-snug text-slate-300"
          >
            {text.length > PREVIEW_CHARS
              ? `${text.slice(0, PREVIEW_CHARS)}\n… ${text.length - PREVIEW_CHARS} more characters: Copy or Download has the whole text`
              : text}
          </pre>
        </>
      )}
      <ImportBox />
    </div>
  );
}

/** the preview's length: a 10,000-queue export (megabytes) laid out as text held the page for two seconds */
const PREVIEW_CHARS = 100_000;

const OPTION_LABEL: Record<ExportOptionName, string> = { vhost: 'vhost', cluster: 'RabbitmqCluster' };
const OPTION_PLACEHOLDER: Record<ExportOptionName, string> = { vhost: '/', cluster: 'rabbitmq' };

/** Import stays here too (it is also the toolbar's Open / Import). */
function ImportBox() {
  return (
    <div className="mt-2 border-t border-slate-800 pt-2">
      <div className="mb-1 font-semibold text-slate-300">Import a design or RabbitMQ definitions JSON</div>
      <ImportFile />
    </div>
  );
}
