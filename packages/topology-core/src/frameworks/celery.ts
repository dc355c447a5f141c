/**
 * Celery (Python) read as text: each task (`@app.task(...)`, `@shared_task(...)`, a `Task`
 * subclass) with its retry options (TASK_OPTIONS: `autoretry_for`, `max_retries`,
 * `retry_backoff`, `retry_backoff_max`, `retry_jitter`, `default_retry_delay`, `retry_kwargs`,
 * `queue`) and an explicit `self.retry(countdown=..., max_retries=...)`; the settings
 * (`task_acks_late`, `task_reject_on_worker_lost`, `task_default_queue`, `task_annotations`) as
 * `app.conf.x = ...`, `app.conf.update(x=...)`, a celeryconfig module or Django's `CELERY_X`.
 * A setting Celery does not have (`task_max_retries`: max_retries is a task option) is named with
 * its line. A retry publishes a new message with an ETA that the worker holds until due; it is
 * read as an in-process wait (the attempts and their times are the same). When retries are
 * exhausted (or the task has none) the task fails and its message is acked: it leaves the broker
 * unprocessed (discarded; task_acks_on_failure_or_timeout). Celery declares per queue a direct
 * exchange of the same name bound by the queue's name. Waits (docs tasks.html#automatic-retry-for-known-exceptions,
 * celery/utils/time.py get_exponential_backoff_interval): retry_backoff=True or N ->
 * min(retry_backoff_max, N * 2^retries) s, drawn uniformly below that when retry_jitter (the
 * default); otherwise countdown from retry_kwargs, else default_retry_delay (180 s).
 */
import type { ConsumerSpec } from '../model/consumer.js';
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { NodeSource, SourceNote } from '../model/source.js';
import { consumerNodeId, queueNodeId } from '../model/nodeIds.js';
import { argsWithOffsets, type CodeText } from './read/codeText.js';
import { celerySettings, type CelerySettings, type Kw } from './read/celerySettings.js';
import { CELERY_KEYS } from './read/celeryKeys.js';
import { PythonValues, type PyValue } from './read/pythonValues.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import type { AppFrameworkDef, AppInput, AppReading, ReadingNote } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

const CELERY_TASKS = 'https://docs.celeryq.dev/en/stable/userguide/tasks.html#automatic-retry-for-known-exceptions';
const CELERY_CONF = 'https://docs.celeryq.dev/en/stable/userguide/configuration.html';
const D = {
  maxRetries: { value: '3', cite: CELERY_TASKS },
  defaultRetryDelay: { value: '180', cite: CELERY_TASKS },
  retryBackoff: { value: 'False', cite: CELERY_TASKS },
  retryBackoffMax: { value: '600', cite: CELERY_TASKS },
  retryJitter: { value: 'True', cite: CELERY_TASKS },
  acksLate: { value: 'False', cite: `${CELERY_CONF}#task-acks-late` },
  rejectOnWorkerLost: { value: 'False', cite: `${CELERY_CONF}#task-reject-on-worker-lost` },
  defaultQueue: { value: 'celery', cite: `${CELERY_CONF}#task-default-queue` },
} as const;

/** max_retries=None retries for ever: read as this many attempts (and said) */
export const UNBOUNDED_ATTEMPTS = 10_000;

export const looksLikeCelery = (text: string): boolean =>
  /\bautoretry_for\b|@\w*\.?task\b|@shared_task\b|\bfrom\s+celery\b|\bimport\s+celery\b|\bCelery\s*\(/.test(text);

interface Site {
  readonly name: string;
  readonly opts: Map<string, Kw>;
  readonly bodyFrom: number;
  readonly bodyTo: number;
  readonly at: number;
}

/** `k=v` arguments of a call, each with its line. */
function kwargs(code: CodeText, args: string, argsAt: number): Map<string, Kw> {
  const out = new Map<string, Kw>();
  for (const a of argsWithOffsets(args)) {
    const m = /^(\w+)\s*=\s*([\s\S]+)$/.exec(a.text);
    if (m) out.set(m[1]!, { value: m[2]!.trim(), line: code.line(argsAt + a.at) });
  }
  return out;
}

/** `{'max_retries': 5, 'countdown': 10}` as kwargs (retry_kwargs, task_annotations). */
function dictEntries(kw: Kw | undefined): Map<string, Kw> {
  const out = new Map<string, Kw>();
  if (!kw) return out;
  for (const m of kw.value.matchAll(/['"](\w+)['"]\s*:\s*([^,}]+)/g))
    out.set(m[1]!, { value: m[2]!.trim(), line: kw.line });
  return out;
}

/** Every task: decorated functions and Task subclasses (a base task for others), with their options. */
function tasksOf(code: CodeText): Site[] {
  const t = code.text;
  const decorated = [...t.matchAll(/^[ \t]*@((?:\w+\.)*task|shared_task)\b/gm)];
  const classes = [...t.matchAll(/^class\s+(\w+)\s*\(\s*(?:[\w.]*\.)?(?:Task|CeleryTask|\w+Task)\b[^)]*\)\s*:/gm)];
  const starts = [...decorated, ...classes].map((m) => m.index).sort((a, b) => a - b);
  const nextStart = (i: number): number => starts.find((x) => x > i) ?? t.length;
  const sites: Site[] = [];
  for (const d of decorated) {
    const at = d.index + d[0].length;
    const paren = /^\s*\(/.test(t.slice(at, at + 3)) ? code.balanced(t.indexOf('(', at)) : undefined;
    const opts = paren ? kwargs(code, paren.inner, t.indexOf('(', at) + 1) : new Map<string, Kw>();
    const after = paren ? paren.end : at;
    const def = /def\s+(\w+)\s*\(/.exec(t.slice(after, after + 2000));
    if (!def) continue;
    sites.push({ name: def[1]!, opts, bodyFrom: after + def.index, bodyTo: nextStart(d.index), at: d.index });
  }
  for (const c of classes) {
    const from = c.index + c[0].length;
    const to = nextStart(c.index);
    const opts = new Map<string, Kw>();
    const re = /^([ \t]+)(\w+)\s*=\s*(.+)$/gm;
    re.lastIndex = from;
    for (let m = re.exec(t); m && m.index < to; m = re.exec(t))
      // class-level attributes only, not a method's locals
      if (m[1]!.length <= 8 && !opts.has(m[2]!)) opts.set(m[2]!, { value: m[3]!.trim(), line: code.line(m.index) });
    sites.push({ name: c[1]!, opts, bodyFrom: from, bodyTo: to, at: c.index });
  }
  return sites.sort((a, b) => a.at - b.at);
}

interface TaskCtx {
  readonly code: CodeText;
  readonly values: PythonValues;
  readonly settings: CelerySettings;
  readonly file: string;
}

/** A task option: the call's own, the decorator's or class's, retry_kwargs', task_annotations', else the default. */
function option(site: Site, explicit: Map<string, Kw>, ctx: TaskCtx, name: string): Kw | undefined {
  return (
    explicit.get(name) ??
    site.opts.get(name) ??
    dictEntries(site.opts.get('retry_kwargs')).get(name) ??
    ctx.settings.annotations(site.name).get(name)
  );
}

/** One task's consumer: its retries as an in-process retry, then discarded (the task fails and its message is acked). */
function readTask(
  site: Site,
  ctx: TaskCtx,
  src: SourceBuilder,
): { consumer: Omit<ConsumerSpec, 'queue'>; jitter: boolean; queue?: Kw } {
  const { code, values } = ctx;
  const retryCalls = code
    .methodCalls('retry', site.bodyFrom, site.bodyTo)
    .filter((c) => /(?:self|task)\s*$/.test(code.text.slice(Math.max(0, c.at - 8), c.at)));
  const auto = site.opts.get('autoretry_for');
  if (auto) src.read('autoretry_for', auto.value, auto.line);
  const explicit = retryCalls[0] ? kwargs(code, retryCalls[0].args, retryCalls[0].argsAt) : new Map<string, Kw>();
  if (retryCalls[0])
    src.read('self.retry', retryCalls[0].args.replace(/\s+/g, ' ').trim() || '()', code.line(retryCalls[0].at));
  const retries = auto !== undefined || retryCalls.length > 0;
  const py = (key: string, kw: Kw | undefined, d: { value: string; cite: string }): PyValue | undefined => {
    if (!kw) return pyLiteral(src.defaulted(key, d));
    const r = values.eval(kw.value);
    src.read(key, kw.value, kw.line, r.via.length ? { via: r.via.join('; ') } : {});
    if (r.value === undefined)
      src.note(
        'not-understood',
        kw.line,
        `${key}=${kw.value} is not a value read here: the default ${d.value} is used`,
      );
    return r.value === undefined ? pyLiteral(d.value) : r.value;
  };
  let maxRetries = 0;
  if (retries) {
    const maxE = option(site, explicit, ctx, 'max_retries');
    const v = py('max_retries', maxE, D.maxRetries);
    if (v === null)
      src.note(
        'not-understood',
        maxE!.line,
        `max_retries=None retries for ever: read as ${UNBOUNDED_ATTEMPTS} attempts`,
      );
    maxRetries = v === null ? UNBOUNDED_ATTEMPTS - 1 : Math.max(0, Math.trunc(Number(v) || 0));
  }
  const backoffV = retries ? py('retry_backoff', site.opts.get('retry_backoff'), D.retryBackoff) : false;
  const factor = backoffV === true ? 1 : typeof backoffV === 'number' ? backoffV : 0;
  const maxBackoff = Number(
    retries ? py('retry_backoff_max', site.opts.get('retry_backoff_max'), D.retryBackoffMax) : 600,
  );
  const jitter = retries ? py('retry_jitter', site.opts.get('retry_jitter'), D.retryJitter) !== false : false;
  const countdownE = explicit.get('countdown') ?? dictEntries(site.opts.get('retry_kwargs')).get('countdown');
  const countdown = countdownE ? values.eval(countdownE.value).value : undefined;
  let delaysMs: number[] = [];
  if (retries && typeof countdown === 'number') delaysMs = [countdown * 1000];
  else if (retries) {
    if (countdownE)
      src.note(
        'not-understood',
        countdownE.line,
        `countdown=${countdownE.value}: not a value read here; read as ${factor > 0 && auto ? 'retry_backoff' : 'default_retry_delay'}`,
      );
    const delay = Number(
      py('default_retry_delay', option(site, explicit, ctx, 'default_retry_delay'), D.defaultRetryDelay) ?? 180,
    );
    delaysMs =
      factor > 0 && auto
        ? Array.from({ length: Math.min(maxRetries, 64) }, (_, i) => Math.min(maxBackoff, factor * 2 ** i) * 1000)
        : [delay * 1000];
  }
  for (const [key, d] of [
    ['task_acks_late', D.acksLate],
    ['task_reject_on_worker_lost', D.rejectOnWorkerLost],
  ] as const) {
    const s = ctx.settings.get(key);
    if (s) src.read(key, s.value, s.line);
    else src.defaulted(key, d);
  }
  const uniform = delaysMs.every((d) => d === delaysMs[0]);
  return {
    consumer: {
      id: site.name,
      label: `Celery task ${site.name}`,
      behaviour: {
        kind: 'worker',
        onFailure: [
          {
            then: retries
              ? {
                  kind: 'retryInProcess',
                  maxAttempts: maxRetries + 1,
                  backoff: {
                    initialMs: delaysMs[0] ?? 0,
                    multiplier: uniform ? 1 : 2,
                    maxMs: Math.max(0, ...delaysMs),
                    ...(uniform ? {} : { delaysMs }),
                  },
                  // the task fails: its message is acked (task_acks_on_failure_or_timeout) and leaves the broker unprocessed
                  recover: { kind: 'discard' },
                }
              : { kind: 'discard' },
          },
        ],
      },
    },
    jitter: factor > 0 && auto !== undefined ? jitter : false,
    ...(site.opts.get('queue') ? { queue: site.opts.get('queue')! } : {}),
  };
}

const pyLiteral = (v: string): PyValue =>
  v === 'True' ? true : v === 'False' ? false : v === 'None' ? null : /^\d+(\.\d+)?$/.test(v) ? Number(v) : v;

function readCelery(input: AppInput): AppReading {
  const code = input.code();
  const file = input.file.name;
  const values = new PythonValues(code, input.env);
  const settings = celerySettings(code, values);
  const sites = tasksOf(code);
  if (sites.length === 0 && !settings.isConfig)
    throw new AppConfigFailure({
      file,
      message: 'no Celery task (@app.task, @shared_task or a Task subclass) or Celery settings found',
    });
  const ctx: TaskCtx = { code, values, settings, file };
  const defaultQueueE = settings.get('task_default_queue');
  const defaultQueue = defaultQueueE
    ? String(values.eval(defaultQueueE.value).value ?? D.defaultQueue.value)
    : D.defaultQueue.value;
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [];
  const bindings: BindingDef[] = [];
  const consumers: ConsumerSpec[] = [];
  const sources: Record<string, NodeSource> = {};
  const notes: ReadingNote[] = [];
  const taken = new Map<string, string>();
  const keyNotes: SourceNote[] = settings.unknown();
  // tasks that retry first: where several share a queue, the simulation follows the first
  const ordered = [...sites].sort((a, b) => retrying(b, code) - retrying(a, code) || a.at - b.at);
  const stand: Site[] = sites.length === 0 ? [{ name: 'task', opts: new Map(), bodyFrom: 0, bodyTo: 0, at: 0 }] : [];
  for (const site of [...ordered, ...stand]) {
    const src = new SourceBuilder('celery', file);
    const read = readTask(site, ctx, src);
    const queue = read.queue ? String(values.eval(read.queue.value).value ?? defaultQueue) : defaultQueue;
    if (read.queue) src.read('queue', queue, read.queue.line);
    const line = site === stand[0] ? (keyNotes[0]?.line ?? 1) : code.line(site.at);
    if (!queues.some((q) => q.name === queue)) {
      exchanges.push({
        name: queue,
        type: 'direct',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      });
      queues.push({ name: queue, durable: true, auto_delete: false, arguments: {} });
      bindings.push({
        source: queue,
        destination: queue,
        destination_type: 'queue',
        routing_key: queue,
        arguments: {},
      });
      sources[queueNodeId(queue)] = { framework: 'celery', file, line: defaultQueueE?.line ?? line };
    }
    if (taken.has(queue)) {
      notes.push({
        line,
        text: `task ${site.name} shares queue "${queue}" with task ${taken.get(queue)}: the simulation follows ${taken.get(queue)}'s retries on that queue`,
      });
      continue;
    }
    taken.set(queue, site.name);
    for (const n of keyNotes.splice(0)) src.addNote(n);
    consumers.push({
      ...read.consumer,
      queue,
      ...(site === stand[0] ? { label: 'Celery task (stand-in: no task in this file)' } : {}),
    });
    sources[consumerNodeId(site.name)] = src.build(site.opts.get('autoretry_for')?.line ?? line, {
      jitter: read.jitter,
    });
  }
  if (stand.length)
    notes.push({
      line: 1,
      text: 'no task in this file: its settings are read onto a stand-in task "task" that sets no retry of its own (retries are per task: autoretry_for, self.retry)',
    });
  return {
    framework: 'celery',
    exchanges,
    queues,
    bindings,
    consumers,
    publishers: consumers.map((c) => ({
      id: `apply-${c.id}`,
      exchange: c.queue,
      routingKey: c.queue,
      bodyPrefix: c.id,
    })),
    sources,
    notes,
  };
}

/** 1 when the task retries (autoretry_for or self.retry in its body) */
function retrying(s: Site, code: CodeText): number {
  return s.opts.has('autoretry_for') || code.methodCalls('retry', s.bodyFrom, s.bodyTo).length > 0 ? 1 : 0;
}

export const celery: AppFrameworkDef = {
  id: 'celery',
  ...FRAMEWORK_TRAITS['celery'],
  fileKinds: ['python'],
  looksFor: 'a Celery task or Celery settings',
  detect: (input) =>
    looksLikeCelery(input.file.text) ||
    celerySettings(input.code(), new PythonValues(input.code(), input.env)).isConfig,
  read: readCelery,
  defaults: D,
  keys: CELERY_KEYS,
};
