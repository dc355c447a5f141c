/**
 * Celery's settings as a Python file writes them: a celeryconfig module's `name = value`,
 * `app.conf.name = value`, `app.conf.update(name=value)`, Django's `CELERY_NAME = value`, and
 * the old upper-case names. Each is checked against Celery's own keys (celeryKeys.ts): a name in a
 * setting's form that Celery does not have is named with its line, with what was meant.
 */
import type { SourceNote } from '../../model/source.js';
import { argsWithOffsets, type CodeText } from './codeText.js';
import { CELERY_KEYS, CELERY_OLD_NAMES } from './celeryKeys.js';
import { keyNote, lookupKey } from './keyTable.js';
import type { PythonValues } from './pythonValues.js';

export interface Kw {
  readonly value: string;
  readonly line: number;
}

export interface CelerySettings {
  /** a setting by its new name, in whichever form the file writes it */
  readonly get: (name: string) => Kw | undefined;
  /** task_annotations' options for a task (`'*'` and the task's own entry) */
  readonly annotations: (task: string) => Map<string, Kw>;
  /** a note for each setting Celery does not have */
  readonly unknown: () => SourceNote[];
  /** the file sets Celery settings (a celeryconfig module, app.conf) */
  readonly isConfig: boolean;
}

/** Task options that people write as settings (`task_max_retries`): Celery reads them per task only. */
const TASK_OPTIONS = new Set([
  'max_retries',
  'default_retry_delay',
  'autoretry_for',
  'dont_autoretry_for',
  'retry_backoff',
  'retry_backoff_max',
  'retry_jitter',
  'retry_kwargs',
]);

const NAMESPACE =
  /^(task|worker|broker|result|beat|event|control|security|database|redis|cache|mongodb|cassandra|s3|azureblockblob|elasticsearch|couchbase|arangodb|cosmosdbsql|gcs)_\w+$/;
const OLD_NAMESPACE = /^(CELERY|CELERYD|CELERYBEAT|BROKER)_[A-Z0-9_]+$/;

/** The new name a written name stands for (itself, an old name, a Django CELERY_ name), or undefined when unknown. */
function newName(name: string): string | undefined {
  if (lookupKey(CELERY_KEYS, name)) return name;
  const old = CELERY_OLD_NAMES.get(name);
  if (old) return old;
  if (name.startsWith('CELERY_')) {
    const d = name.slice(7).toLowerCase();
    if (lookupKey(CELERY_KEYS, d)) return d;
  }
  return undefined;
}

interface Written {
  readonly name: string;
  readonly kw: Kw;
  /** written as a setting for sure (app.conf), not just a module variable */
  readonly explicit: boolean;
}

export function celerySettings(code: CodeText, values: PythonValues): CelerySettings {
  const t = code.text;
  const written: Written[] = [];
  for (const m of t.matchAll(/^(?:\w+\.conf\.)?([A-Za-z_]\w*)\s*=\s*([^\n]+)$/gm))
    written.push({
      name: m[1]!,
      kw: { value: m[2]!.trim(), line: code.line(m.index) },
      explicit: /^\w+\.conf\./.test(m[0]),
    });
  for (const c of code.methodCalls('update'))
    if (/\bconf\s*$/.test(t.slice(Math.max(0, c.at - 8), c.at)))
      for (const a of argsWithOffsets(c.args)) {
        const m = /^(\w+)\s*=\s*([\s\S]+)$/.exec(a.text);
        if (m)
          written.push({ name: m[1]!, kw: { value: m[2]!.trim(), line: code.line(c.argsAt + a.at) }, explicit: true });
      }
  const known = new Map<string, Kw>();
  for (const w of written) {
    const n = newName(w.name);
    if (n) known.set(n, w.kw);
  }
  const settingLike = (w: Written): boolean => NAMESPACE.test(w.name) || OLD_NAMESPACE.test(w.name);
  const isConfig =
    known.size > 0 || written.some((w) => w.explicit) || (written.some(settingLike) && !/^\s*(def|class)\s/m.test(t));
  const annotations = (task: string): Map<string, Kw> => {
    const out = new Map<string, Kw>();
    const a = known.get('task_annotations');
    if (!a) return out;
    for (const key of ['*', task, `tasks.${task}`]) {
      const m = new RegExp(`['"]${key.replace(/[.*]/g, '\\$&')}['"]\\s*:\\s*\\{([^}]*)\\}`).exec(a.value);
      for (const e of m?.[1]?.matchAll(/['"](\w+)['"]\s*:\s*([^,}]+)/g) ?? [])
        out.set(e[1]!, { value: e[2]!.trim(), line: a.line });
    }
    return out;
  };
  const unknown = (): SourceNote[] => {
    if (!isConfig) return [];
    const notes: SourceNote[] = [];
    for (const w of written) {
      if (newName(w.name) || !(w.explicit || settingLike(w))) continue;
      const option = w.name.replace(/^(celery_)?task_/i, '').toLowerCase();
      if (TASK_OPTIONS.has(option)) {
        const v = values.eval(w.kw.value).value;
        notes.push({
          kind: 'ignored-key',
          line: w.kw.line,
          key: w.name,
          text: `${w.name} is not a Celery setting: ${option} is a task option, so Celery never reads this line and every task keeps its own ${option}`,
          fix: `Set it on the task: @app.task(${option}=${v ?? w.kw.value}) (or a Task base class), or for every task: task_annotations = {'*': {'${option}': ${w.kw.value}}}.`,
        });
        continue;
      }
      const n = keyNote(CELERY_KEYS, w.name.toLowerCase(), w.name, w.kw.line);
      if (n) notes.push(n);
    }
    return notes;
  };
  return { get: (n) => known.get(n), annotations, unknown, isConfig };
}
