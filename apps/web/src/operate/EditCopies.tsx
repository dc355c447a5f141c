/**
 * Fix, then retry: what to change in each copy before it is re-driven. A group gets an RFC 6902
 * JSON patch (checked as you type, and previewed on the first message of the listing); one
 * message gets its body edited as JSON (sent as a patch replacing the whole body). Headers are
 * NAME=VALUE lines, checked against what AMQP and the broker forbid.
 */
import {
  applyJsonPatch,
  parseJsonPatch,
  parseSetHeader,
  type DeadLetterMessage,
  type JsonValue,
} from '@retry-studio/topology-core/operate';

const area = 'w-full rounded border border-slate-700 bg-slate-950 p-1 font-mono text-[10px]';

export interface EditState {
  /** the patch text (group mode) or the body text (one message) */
  text: string;
  headers: string;
  /** editing one message's body: how it is named, and the re-drive filter that picks it alone (its message-id, or its position and digest) */
  single?: { label: string; filter: string };
}

export interface CheckedEdit {
  readonly problems: string[];
  readonly patch?: unknown[];
  readonly setHeaders?: Record<string, string>;
}

/** The edit as the API takes it, or the problems (each says what is wrong and where). */
export function checkEdit(e: EditState): CheckedEdit {
  const problems: string[] = [];
  let patch: unknown[] | undefined;
  if (e.text.trim() !== '') {
    let doc: unknown;
    try {
      doc = JSON.parse(e.text);
    } catch (err) {
      problems.push(`${e.single ? 'body' : 'patch'}: not JSON (${(err as Error).message})`);
    }
    if (doc !== undefined) {
      if (e.single) patch = [{ op: 'replace', path: '', value: doc }];
      else {
        const p = parseJsonPatch(doc);
        if (!p.ok) problems.push(`patch${p.path}: ${p.message}`);
        else patch = p.patch as unknown[];
      }
    }
  }
  const setHeaders: Record<string, string> = {};
  e.headers
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .forEach((l, i) => {
      const h = parseSetHeader(l);
      if (!h.ok) problems.push(`header line ${i + 1}: ${h.message}`);
      else setHeaders[h.name] = h.value;
    });
  return { problems, ...(patch ? { patch } : {}), ...(Object.keys(setHeaders).length ? { setHeaders } : {}) };
}

function preview(e: EditState, checked: CheckedEdit, sample: DeadLetterMessage | undefined): string | undefined {
  if (e.single || !checked.patch || !sample) return undefined;
  let doc: JsonValue;
  try {
    doc = JSON.parse(sample.body) as JsonValue;
  } catch {
    return `#${sample.seq}: the body is not JSON: the patch would leave it in the queue`;
  }
  const p = parseJsonPatch(checked.patch);
  if (!p.ok) return undefined;
  const r = applyJsonPatch(doc, p.patch);
  return r.ok
    ? `#${sample.seq} after the patch: ${JSON.stringify(r.value)}`
    : `#${sample.seq}: ${r.message}: it would stay in the queue`;
}

export function EditCopies({
  edit,
  onChange,
  sample,
}: {
  edit: EditState;
  onChange: (e: EditState) => void;
  sample: DeadLetterMessage | undefined;
}) {
  const checked = checkEdit(edit);
  const after = preview(edit, checked, sample);
  return (
    <div data-testid="redrive-edit" className="space-y-1 rounded border border-slate-800 p-1.5 text-[11px]">
      <div className="flex items-center justify-between font-semibold text-slate-300">
        <span>
          {edit.single
            ? `Edit message ${edit.single.label} (its body, as JSON)`
            : 'Fix each copy: JSON patch (RFC 6902)'}
        </span>
        {edit.single && (
          <button
            type="button"
            data-testid="redrive-edit-group"
            className="text-[10px] text-sky-300"
            onClick={() => onChange({ text: '', headers: edit.headers })}
          >
            back to the group
          </button>
        )}
      </div>
      <textarea
        aria-label={edit.single ? 'Message body (JSON)' : 'JSON patch'}
        data-testid="redrive-edit-body"
        rows={edit.single ? 6 : 3}
        spellCheck={false}
        placeholder={edit.single ? '' : '[{"op":"replace","path":"/amount","value":12}]'}
        className={area}
        value={edit.text}
        onChange={(ev) => onChange({ ...edit, text: ev.target.value })}
      />
      <textarea
        aria-label="Headers to set (NAME=VALUE per line)"
        data-testid="redrive-edit-headers"
        rows={2}
        spellCheck={false}
        placeholder="x-fixed-by=ops"
        className={area}
        value={edit.headers}
        onChange={(ev) => onChange({ ...edit, headers: ev.target.value })}
      />
      {checked.problems.map((p) => (
        <div key={p} role="alert" data-testid="redrive-edit-problem" className="text-rose-300">
          {p}
        </div>
      ))}
      {after && (
        <div data-testid="redrive-edit-preview" className="break-all font-mono text-[10px] text-slate-400">
          {after}
        </div>
      )}
      <div className="text-[10px] text-slate-500">
        The edited copy is the only one sent: its original is acked once the copy is confirmed; the copy carries
        x-redrive-edited.
      </div>
    </div>
  );
}
