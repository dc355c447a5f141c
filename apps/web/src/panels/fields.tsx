import { useEffect, useId, useState, type ReactNode } from 'react';
import type { ValidationIssue } from '@retry-studio/topology-core/model';

export function FieldShell({
  label,
  issues,
  children,
  hint,
  id,
}: {
  label: string;
  issues?: ValidationIssue[];
  children: ReactNode;
  hint?: string;
  id: string;
}) {
  const err = issues?.find((i) => !isWarning(i));
  const warn = issues?.find((i) => isWarning(i));
  return (
    <div className="mb-2">
      <label htmlFor={id} className="mb-0.5 block text-[11px] font-medium text-slate-400">
        {label}
      </label>
      {children}
      {issues?.map((i, k) => (
        <div
          key={k}
          data-testid="field-error"
          role={isWarning(i) ? undefined : 'alert'}
          className={`mt-0.5 text-[11px] ${isWarning(i) ? 'text-amber-300' : 'text-red-400'}`}
        >
          {i.message}
        </div>
      ))}
      {!err && !warn && hint && <div className="mt-0.5 text-[10px] text-slate-500">{hint}</div>}
    </div>
  );
}

const WARN = new WeakSet<ValidationIssue>();
export function markWarnings(ws: readonly ValidationIssue[]): void {
  for (const w of ws) WARN.add(w);
}
function isWarning(i: ValidationIssue): boolean {
  return WARN.has(i);
}

export const inputCls =
  'w-full rounded border bg-slate-950 px-2 py-1 text-xs text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';

export function border(issues?: ValidationIssue[]) {
  return issues?.some((i) => !isWarning(i)) ? 'border-red-500' : 'border-slate-700';
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  issues?: ValidationIssue[];
  hint?: string;
  testid?: string;
  placeholder?: string;
  /** URLs, names on the broker: monospaced, no spell check, no autofill */
  code?: boolean;
  onFocus?: () => void;
  onBlur?: () => void;
}) {
  const id = useId();
  return (
    <FieldShell label={props.label} issues={props.issues} hint={props.hint} id={id}>
      <input
        id={id}
        data-testid={props.testid}
        className={`${inputCls} ${border(props.issues)}${props.code ? ' font-mono text-[11px]' : ''}`}
        value={props.value}
        placeholder={props.placeholder}
        {...(props.code ? { spellCheck: false, autoComplete: 'off' } : {})}
        onFocus={props.onFocus}
        onBlur={props.onBlur}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.issues?.some((i) => !isWarning(i)) || undefined}
      />
    </FieldShell>
  );
}

/**
 * A number argument typed as text: what parses as a number is stored as one, anything else
 * is stored as typed, so the core's validation (not this field) says what is wrong with it.
 */
export function NumberArgField(props: {
  label: string;
  value: unknown;
  onChange: (v: number | string | undefined) => void;
  issues?: ValidationIssue[];
  hint?: string;
  testid?: string;
  /** shown when empty (default "not set"): what is in effect without the argument */
  placeholder?: string;
}) {
  const id = useId();
  const [text, setText] = useState(props.value === undefined ? '' : String(props.value));
  useEffect(() => {
    const shown = text.trim() === '' ? undefined : Number.isNaN(Number(text)) ? text : Number(text);
    if (shown !== props.value) setText(props.value === undefined ? '' : String(props.value));
  }, [props.value]);
  return (
    <FieldShell label={props.label} issues={props.issues} hint={props.hint} id={id}>
      <input
        id={id}
        data-testid={props.testid}
        inputMode="numeric"
        className={`${inputCls} ${border(props.issues)}`}
        value={text}
        placeholder={props.placeholder ?? 'not set'}
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          const t = v.trim();
          props.onChange(t === '' ? undefined : t !== '' && !Number.isNaN(Number(t)) ? Number(t) : v);
        }}
        aria-invalid={props.issues?.some((i) => !isWarning(i)) || undefined}
      />
    </FieldShell>
  );
}

export function SelectField(props: {
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (v: string) => void;
  issues?: ValidationIssue[];
  testid?: string;
  hint?: string;
}) {
  const id = useId();
  return (
    <FieldShell label={props.label} issues={props.issues} hint={props.hint} id={id}>
      <select
        id={id}
        data-testid={props.testid}
        className={`${inputCls} ${border(props.issues)}`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

export function CheckField(props: { label: string; value: boolean; onChange: (v: boolean) => void; testid?: string }) {
  const id = useId();
  return (
    <label htmlFor={id} className="mb-2 mr-3 inline-flex items-center gap-1.5 text-xs text-slate-300">
      <input
        id={id}
        type="checkbox"
        data-testid={props.testid}
        checked={props.value}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

/** JSON edited as text: parse errors are shown here; the parsed value goes to the core's validation. */
export function JsonField(props: {
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  issues?: ValidationIssue[];
  rows?: number;
  testid?: string;
}) {
  const id = useId();
  const [text, setText] = useState(() => JSON.stringify(props.value ?? {}, null, 2));
  const [parseError, setParseError] = useState<string | null>(null);
  useEffect(() => {
    try {
      if (JSON.stringify(JSON.parse(text)) === JSON.stringify(props.value ?? {})) return;
    } catch {
      /* the user is mid-edit */
      return;
    }
    setText(JSON.stringify(props.value ?? {}, null, 2));
  }, [props.value]);
  const issues = [...(props.issues ?? []), ...(parseError ? [{ path: '', code: 'json', message: parseError }] : [])];
  return (
    <FieldShell label={props.label} issues={issues} id={id}>
      <textarea
        id={id}
        data-testid={props.testid}
        rows={props.rows ?? 4}
        spellCheck={false}
        className={`${inputCls} ${border(issues)} font-mono text-[11px]`}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const v = JSON.parse(e.target.value);
            setParseError(null);
            props.onChange(v);
          } catch (err) {
            setParseError(`not JSON yet: ${(err as Error).message}`);
          }
        }}
      />
    </FieldShell>
  );
}
