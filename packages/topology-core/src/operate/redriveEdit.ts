/**
 * Fix, then retry: the edit a re-drive applies to each copy (a JSON patch on the body, headers
 * set), decided here, pure. The copy records what changed in `x-redrive-edited`. A message the
 * edit does not apply to (its body is not JSON, or the patch fails on it) is not moved: it stays
 * with the reason naming it.
 */
import type { AmqpTable } from '../model/definitions.js';
import { applyJsonPatch, type JsonPatchOp, type JsonValue } from './jsonPatch.js';
import { REDRIVE_MARKER_HEADERS } from './redrive.js';

export const REDRIVE_EDITED_HEADER = 'x-redrive-edited';

export interface RedriveEdit {
  readonly patch?: readonly JsonPatchOp[];
  /** header name -> value (a string) */
  readonly setHeaders?: Readonly<Record<string, string>>;
}

/** headers the broker writes (x-death and its summaries, delivery counts) or the re-drive writes: not for an operator to set */
const RESERVED = /^(x-death|x-first-death-.*|x-last-death-.*|x-delivery-count|x-acquired-count|x-redrive-.*)$/;

/** Why AMQP (a field-table name is a short string: 1 to 255 bytes) or the broker forbids setting this header; undefined when allowed. */
export function headerNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'a header name cannot be empty';
  if (utf8Bytes(name) > 255) return `header name '${name.slice(0, 40)}…' is longer than AMQP's 255 bytes`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return `header name ${JSON.stringify(name)} has a control character`;
  if (RESERVED.test(name) || REDRIVE_MARKER_HEADERS.includes(name))
    return `header '${name}' is written by the broker or by the re-drive itself: it cannot be set`;
  return undefined;
}

function utf8Bytes(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** `NAME=VALUE` (`--set-header`) */
export function parseSetHeader(s: string): { ok: true; name: string; value: string } | { ok: false; message: string } {
  const eq = s.indexOf('=');
  if (eq < 0) return { ok: false, message: `--set-header ${JSON.stringify(s)}: use NAME=VALUE` };
  const name = s.slice(0, eq);
  const problem = headerNameProblem(name);
  if (problem) return { ok: false, message: `--set-header: ${problem}` };
  return { ok: true, name, value: s.slice(eq + 1) };
}

export function isEmptyEdit(e: RedriveEdit | undefined): boolean {
  return !e || ((e.patch?.length ?? 0) === 0 && Object.keys(e.setHeaders ?? {}).length === 0);
}

export type EditedCopy =
  | {
      readonly ok: true;
      /** the new body (UTF-8 JSON), or undefined: the body is kept */
      readonly body: string | undefined;
      /** headers to set on the copy, `x-redrive-edited` included */
      readonly headers: AmqpTable;
    }
  | { readonly ok: false; readonly reason: string };

/** The edit applied to one message; `label` names it in a refusal (its message id, or its place). */
export function editCopy(body: string, edit: RedriveEdit, label: string): EditedCopy {
  const changed: string[] = [];
  let out: string | undefined;
  if (edit.patch && edit.patch.length > 0) {
    let doc: JsonValue;
    // a whole new body (the one-message editor) replaces a plain-text body as well as a JSON one
    const wholeBody = edit.patch[0]!.op === 'replace' && edit.patch[0]!.path === '';
    try {
      doc = JSON.parse(body) as JsonValue;
    } catch {
      if (!wholeBody)
        return {
          ok: false,
          reason: `message ${label}: the body is not JSON, so --patch cannot apply: left in the queue`,
        };
      doc = null;
    }
    const r = applyJsonPatch(doc, edit.patch);
    if (!r.ok)
      return { ok: false, reason: `message ${label}: the patch does not apply (${r.message}): left in the queue` };
    out = JSON.stringify(r.value);
    changed.push(`patch ${edit.patch.map((o) => `${o.op} ${o.path}`).join(', ')}`);
  }
  const headers: { [k: string]: string } = {};
  const set = Object.entries(edit.setHeaders ?? {});
  for (const [k, v] of set) headers[k] = v;
  if (set.length > 0) changed.push(`headers ${set.map(([k]) => k).join(', ')}`);
  headers[REDRIVE_EDITED_HEADER] = changed.join('; ');
  return { ok: true, body: out, headers };
}
