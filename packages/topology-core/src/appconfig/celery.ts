/**
 * Celery (Python) read as text: each task (`@app.task(...)`, `@shared_task(...)`, `@<x>.task(...)`)
 * with its retry options (`autoretry_for`, `max_retries`, `retry_backoff`, `retry_backoff_max`,
 * `retry_jitter`, `default_retry_delay`, `queue`) and explicit `self.retry(countdown=..., max_retries=...)`
 * in its body; and the settings `task_acks_late`, `task_reject_on_worker_lost`, `task_default_queue`
 * (`app.conf.x = ...`, `app.conf.update(x=...)`, a celeryconfig module, or Django's `CELERY_X`).
 * A retry publishes a new message with an ETA that the worker holds until it is due; it is read as
 * an in-process wait (the attempts and their times are the same). When retries are exhausted the
 * task fails and its message is acked: it leaves the broker (task_acks_on_failure_or_timeout).
 * Celery declares per queue a direct exchange of the same name bound by the queue's name.
 * Waits (docs tasks.html#automatic-retry-for-known-exceptions, celery/utils/time.py
 * get_exponential_backoff_interval): retry_backoff=True or N -> min(retry_backoff_max, N * 2^retries) s,
 * drawn uniformly below that when retry_jitter (the default); otherwise default_retry_delay (180 s).
 */
import type { ConsumerSpec } from '../model/consumer.js';
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId, queueNodeId } from '../model/nodeIds.js';
import { balancedArgs, blankComments, findMethodCalls, lineAt, splitArgs, stringLiteral } from './codeText.js';
import { DEFAULTS } from './defaults.js';
import { SourceBuilder } from './sourceBuilder.js';
import { AppConfigFailure, type AppFile, type AppReading } from './types.js';

const D = DEFAULTS.celery;
/** max_retries=None retries for ever: read as this many attempts (and said) */
export const UNBOUNDED_ATTEMPTS = 10_000;

export const looksLikeCelery = (text: string): boolean =>
  /\bautoretry_for\b|@\w*\.?task\b|@shared_task\b|\bfrom\s+celery\b|\bimport\s+celery\b|\bCelery\s*\(/.test(text);

interface Kw {
  readonly value: string;
  readonly line: number;
}

function kwargs(args: string, offset: number, full: string): Map<string, Kw> {
  const out = new Map<string, Kw>();
  let pos = 0;
  for (const a of splitArgs(args)) {
    const m = /^(\w+)\s*=\s*([\s\S]+)$/.exec(a);
    const at = args.indexOf(a, pos);
    pos = at + a.length;
    if (m) out.set(m[1]!, { value: m[2]!.trim(), line: lineAt(full, offset + at) });
  }
  return out;
}

/** A module-level setting: `app.conf.name = v`, `name = v`, `CELERY_NAME = v`, or `conf.update(name=v)`. */
function setting(text: string, name: string): Kw | undefined {
  const re = new RegExp(`^[ \\t]*(?:\\w+\\.conf\\.)?(?:${name}|CELERY_${name.toUpperCase()})\\s*=\\s*(.+)$`, 'm');
  const m = re.exec(text);
  if (m) return { value: m[1]!.trim(), line: lineAt(text, m.index) };
  for (const c of findMethodCalls(text, 'update')) {
    const k = kwargs(c.args, c.at + c.name.length + 2, text).get(name);
    if (k) return k;
  }
  return undefined;
}

const pyBool = (v: string | undefined): boolean | undefined =>
  v === 'True' ? true : v === 'False' || v === 'None' ? false : undefined;
const pyNum = (v: string | undefined): number | undefined =>
  v !== undefined && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined;

export function readCelery(file: AppFile): AppReading {
  const text = blankComments(file.text, { hash: true });
  const src0 = new SourceBuilder('celery', file.name);
  const acksLate = setting(text, 'task_acks_late');
  const rejectLost = setting(text, 'task_reject_on_worker_lost');
  const defaultQueueE = setting(text, 'task_default_queue');
  const defaultQueue = stringLiteral(defaultQueueE?.value) ?? D.defaultQueue.value;

  const decorated = [...text.matchAll(/^[ \t]*@((?:\w+\.)*task|shared_task)\b/gm)];
  // a Task subclass (a base task for others) with its options as class attributes
  const classes = [...text.matchAll(/^class\s+(\w+)\s*\(\s*(?:[\w.]*\.)?(?:Task|CeleryTask|\w+Task)\b[^)]*\)\s*:/gm)];
  if (decorated.length === 0 && classes.length === 0)
    throw new AppConfigFailure({
      file: file.name,
      message: 'no Celery task (@app.task, @shared_task or a Task subclass) found',
    });
  const exchanges = new Map<string, ExchangeDef>();
  const queues = new Map<string, QueueDef>();
  const bindings: BindingDef[] = [];
  const consumers: ConsumerSpec[] = [];
  const sources: Record<string, NodeSource> = {};
  const notes: { line: number; text: string }[] = [];
  const taken = new Map<string, string>();

  interface Site {
    readonly name: string;
    readonly opts: Map<string, Kw>;
    readonly body: string;
    readonly bodyStart: number;
    readonly at: number;
  }
  const sites: Site[] = [];
  const starts = [...decorated, ...classes].map((m) => m.index!).sort((a, b) => a - b);
  const nextStart = (i: number): number => starts.find((x) => x > i) ?? text.length;
  for (const t of decorated) {
    const at = t.index! + t[0].length;
    const open = text.indexOf('(', at);
    const paren = /^\s*\(/.test(text.slice(at, at + 3)) ? balancedArgs(text, open) : undefined;
    const opts = paren ? kwargs(paren.inner, open + 1, text) : new Map<string, Kw>();
    const after = paren ? paren.end : at;
    const def = /def\s+(\w+)\s*\(/.exec(text.slice(after));
    if (!def) continue;
    const bodyStart = after + def.index!;
    sites.push({ name: def[1]!, opts, body: text.slice(bodyStart, nextStart(t.index!)), bodyStart, at: t.index! });
  }
  for (const c of classes) {
    const bodyStart = c.index! + c[0].length;
    const body = text.slice(bodyStart, nextStart(c.index!));
    const opts = new Map<string, Kw>();
    for (const m of body.matchAll(/^[ \t]+(\w+)\s*=\s*(.+)$/gm)) {
      if (m[0].search(/\S/) > 8) continue; // class-level attributes only, not a method's locals
      if (!opts.has(m[1]!)) opts.set(m[1]!, { value: m[2]!.trim(), line: lineAt(text, bodyStart + m.index!) });
    }
    // retry_kwargs = {'max_retries': 5}
    const rk = opts.get('retry_kwargs');
    const mr = rk ? /['"]max_retries['"]\s*:\s*([^,}]+)/.exec(rk.value) : null;
    if (rk && mr && !opts.has('max_retries')) opts.set('max_retries', { value: mr[1]!.trim(), line: rk.line });
    sites.push({ name: c[1]!, opts, body, bodyStart, at: c.index! });
  }

  for (const site of sites) {
    const { name, opts, body, bodyStart } = site;
    const t = { index: site.at };
    const retryCalls = findMethodCalls(body, 'retry').filter((c) =>
      /self\s*$|task\s*$/.test(body.slice(Math.max(0, c.at - 8), c.at)),
    );
    const auto = opts.get('autoretry_for');
    if (!auto && retryCalls.length === 0) continue;
    const src = new SourceBuilder('celery', file.name);
    src.settings.push(...src0.settings);
    const line = lineAt(text, t.index!);
    if (auto) src.read('autoretry_for', auto.value, auto.line);
    const explicit = retryCalls[0]
      ? kwargs(retryCalls[0].args, bodyStart + retryCalls[0].at + 7, text)
      : new Map<string, Kw>();
    if (retryCalls[0])
      src.read(
        'self.retry',
        retryCalls[0].args.replace(/\s+/g, ' ').trim() || '()',
        lineAt(text, bodyStart + retryCalls[0].at),
      );
    const maxE = explicit.get('max_retries') ?? opts.get('max_retries');
    const maxV = src.value('max_retries', maxE, D.maxRetries);
    let maxRetries = pyNum(maxV);
    if (maxV === 'None') {
      maxRetries = UNBOUNDED_ATTEMPTS - 1;
      src.note(
        'not-understood',
        maxE!.line,
        `max_retries=None retries for ever: read as ${UNBOUNDED_ATTEMPTS} attempts`,
      );
    } else if (maxRetries === undefined) {
      src.note(
        'not-understood',
        maxE!.line,
        `max_retries=${maxV} is not a literal: the default ${D.maxRetries.value} is used`,
      );
      maxRetries = Number(D.maxRetries.value);
    }
    const backoffE = opts.get('retry_backoff');
    const backoffV = src.value('retry_backoff', backoffE, D.retryBackoff);
    const factor = backoffV === 'True' ? 1 : (pyNum(backoffV) ?? 0);
    const maxBackoff = pyNum(src.value('retry_backoff_max', opts.get('retry_backoff_max'), D.retryBackoffMax)) ?? 600;
    const jitter = pyBool(src.value('retry_jitter', opts.get('retry_jitter'), D.retryJitter)) !== false;
    const delayE = opts.get('default_retry_delay');
    const defaultDelay = pyNum(src.value('default_retry_delay', delayE, D.defaultRetryDelay)) ?? 180;
    const countdownE = explicit.get('countdown');
    let delaysMs: number[];
    if (countdownE && pyNum(countdownE.value) !== undefined) delaysMs = [pyNum(countdownE.value)! * 1000];
    else {
      if (countdownE)
        src.note(
          'not-understood',
          countdownE.line,
          `self.retry(countdown=${countdownE.value}): not a literal; read as ${factor > 0 && auto ? 'retry_backoff' : 'default_retry_delay'}`,
        );
      delaysMs =
        factor > 0 && auto
          ? Array.from({ length: Math.min(maxRetries, 64) }, (_, i) => Math.min(maxBackoff, factor * 2 ** i) * 1000)
          : [defaultDelay * 1000];
    }
    if (acksLate) src.read('task_acks_late', acksLate.value, acksLate.line);
    else src.defaulted('task_acks_late', D.acksLate);
    if (rejectLost) src.read('task_reject_on_worker_lost', rejectLost.value, rejectLost.line);
    else src.defaulted('task_reject_on_worker_lost', D.rejectOnWorkerLost);
    const queueE = opts.get('queue');
    const queue = stringLiteral(queueE?.value) ?? defaultQueue;
    if (queueE) src.read('queue', queue, queueE.line);
    if (!exchanges.has(queue)) {
      exchanges.set(queue, {
        name: queue,
        type: 'direct',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      });
      queues.set(queue, { name: queue, durable: true, auto_delete: false, arguments: {} });
      bindings.push({
        source: queue,
        destination: queue,
        destination_type: 'queue',
        routing_key: queue,
        arguments: {},
      });
      sources[queueNodeId(queue)] = { framework: 'celery', file: file.name, line: defaultQueueE?.line ?? line };
    }
    if (taken.has(queue)) {
      notes.push({
        line,
        text: `task ${name} shares queue "${queue}" with task ${taken.get(queue)}: the simulation follows ${taken.get(queue)}'s retries on that queue`,
      });
      continue;
    }
    taken.set(queue, name);
    const uniform = delaysMs.every((d) => d === delaysMs[0]);
    consumers.push({
      id: name,
      queue,
      label: `Celery task ${name}`,
      behaviour: {
        kind: 'worker',
        onFailure: [
          {
            then: {
              kind: 'retryInProcess',
              maxAttempts: maxRetries + 1,
              backoff: {
                initialMs: delaysMs[0]!,
                multiplier: uniform ? 1 : 2,
                maxMs: Math.max(...delaysMs),
                ...(uniform ? {} : { delaysMs }),
              },
              // the task fails: its message is acked (task_acks_on_failure_or_timeout) and leaves the broker unprocessed
              recover: { kind: 'discard' },
            },
          },
        ],
      },
    });
    sources[consumerNodeId(name)] = src.build(auto?.line ?? line, {
      jitter: factor > 0 && auto !== undefined ? jitter : false,
    });
  }
  if (consumers.length === 0)
    throw new AppConfigFailure({
      file: file.name,
      line: lineAt(text, starts[0]!),
      message: 'no Celery task retries (autoretry_for or self.retry): nothing to read',
    });
  return {
    framework: 'celery',
    exchanges: [...exchanges.values()],
    queues: [...queues.values()],
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
