/**
 * Spring Boot's `spring.rabbitmq.listener.*` (application.yml / .properties): the container every
 * @RabbitListener gets. Boot declares no queue: the listener's queues come from --definitions (each
 * work queue gets the listener) or, without them, one stand-in queue named after the application.
 * Boot 4 renamed `retry.max-attempts` (attempts in all) to `retry.max-retries` (retries after the
 * first delivery) and ignores the old key; a file with `max-retries` is read as Boot 4.
 */
import type { ConsumerSpec } from '../model/consumer.js';
import { consumerNodeId, queueNodeId } from '../model/nodeIds.js';
import { readConfigText, type ConfigView } from './configText.js';
import { DEFAULTS } from './defaults.js';
import { springDurationMs } from './durations.js';
import { bool, SourceBuilder } from './sourceBuilder.js';
import { springListenerBehaviour } from './springListener.js';
import { AppConfigFailure, type AppFile, type AppReading, type ReadOptions } from './types.js';

export const BOOT_LISTENER = 'spring.rabbitmq.listener.';

export const hasBootListener = (v: ConfigView): boolean => v.entries.some((e) => e.key.startsWith(BOOT_LISTENER));

const D = DEFAULTS.springBoot;

/** The listener settings of a Boot file as a consumer (its queue filled in by the caller). */
export function bootListener(
  file: AppFile,
  view: ConfigView,
): { consumer: Omit<ConsumerSpec, 'queue' | 'id'>; source: ReturnType<SourceBuilder['build']> } {
  const type = view.get(`${BOOT_LISTENER}type`)?.value.toLowerCase() === 'direct' ? 'direct' : 'simple';
  const p = `${BOOT_LISTENER}${type}.`;
  const src = new SourceBuilder('spring-boot', file.name);
  const get = (k: string) => view.get(p + k);
  const num = (key: string, raw: string, line: number | undefined): number => {
    const n = Number(raw);
    if (!Number.isFinite(n))
      throw new AppConfigFailure({
        file: file.name,
        ...(line !== undefined ? { line } : {}),
        message: `${key} must be a number, got "${raw}"`,
      });
    return n;
  };
  const dur = (key: string, raw: string, line: number | undefined): number => {
    const ms = springDurationMs(raw);
    if (ms === undefined)
      throw new AppConfigFailure({
        file: file.name,
        ...(line !== undefined ? { line } : {}),
        message: `${key} must be a duration (1000, 500ms, 2s, PT1S), got "${raw}"`,
      });
    return ms;
  };
  const retryEnabled = bool(src.value(`${p}retry.enabled`, get('retry.enabled'), D.retryEnabled)) === true;
  const attemptsE = get('retry.max-attempts');
  const retriesE = get('retry.max-retries');
  let maxAttempts: number;
  if (retriesE) {
    maxAttempts =
      num(`${p}retry.max-retries`, src.read(`${p}retry.max-retries`, retriesE.value, retriesE.line), retriesE.line) + 1;
    if (attemptsE)
      src.note(
        'ignored-key',
        attemptsE.line,
        `${p}retry.max-attempts is ignored next to max-retries (Spring Boot 4 reads max-retries only)`,
        `${p}retry.max-attempts`,
      );
  } else if (attemptsE) {
    maxAttempts = num(
      `${p}retry.max-attempts`,
      src.read(`${p}retry.max-attempts`, attemptsE.value, attemptsE.line),
      attemptsE.line,
    );
    src.note(
      'ignored-key',
      attemptsE.line,
      `${p}retry.max-attempts is read as Spring Boot 2/3 does (${maxAttempts} attempts in all); Spring Boot 4 ignores it and applies max-retries' default of ${D.maxRetries.value} retries (${Number(D.maxRetries.value) + 1} attempts)`,
      `${p}retry.max-attempts`,
    );
  } else maxAttempts = Number(src.defaulted(`${p}retry.max-attempts`, D.maxAttempts));
  const initial = get('retry.initial-interval');
  const initialMs = dur(
    `${p}retry.initial-interval`,
    src.value(`${p}retry.initial-interval`, initial, D.initialInterval),
    initial?.line,
  );
  const mult = get('retry.multiplier');
  const multiplier = num(`${p}retry.multiplier`, src.value(`${p}retry.multiplier`, mult, D.multiplier), mult?.line);
  const maxI = get('retry.max-interval');
  const maxMs = dur(`${p}retry.max-interval`, src.value(`${p}retry.max-interval`, maxI, D.maxInterval), maxI?.line);
  const stateless = bool(src.value(`${p}retry.stateless`, get('retry.stateless'), D.stateless)) !== false;
  const requeueRejected =
    bool(src.value(`${p}default-requeue-rejected`, get('default-requeue-rejected'), D.defaultRequeueRejected)) !==
    false;
  const ack = src.value(`${p}acknowledge-mode`, get('acknowledge-mode'), D.acknowledgeMode).toLowerCase();
  const ackMode = ack === 'none' ? 'none' : ack === 'manual' ? 'manual' : 'auto';
  if (ackMode === 'manual')
    src.note(
      'not-understood',
      get('acknowledge-mode')!.line,
      'acknowledge-mode manual: the listener code settles each message; read here as the container does for a thrown exception',
    );
  const prefetchE = get('prefetch');
  const prefetch = Math.min(
    65535,
    Math.max(0, Math.trunc(num(`${p}prefetch`, src.value(`${p}prefetch`, prefetchE, D.prefetch), prefetchE?.line))),
  );
  const concKey = type === 'direct' ? 'consumers-per-queue' : 'concurrency';
  const concE = get(concKey);
  const concurrency = Math.max(
    1,
    Math.trunc(num(`${p}${concKey}`, src.value(`${p}${concKey}`, concE, D.concurrency), concE?.line)),
  );
  if (retryEnabled) src.defaulted('recoverer', D.recoverer);
  const behaviour = springListenerBehaviour({
    retryEnabled,
    stateless,
    maxAttempts: Math.max(1, Math.trunc(maxAttempts)),
    backoff: { initialMs, multiplier: Math.max(1, multiplier), maxMs: Math.max(initialMs, maxMs) },
    requeueRejected,
    recoverer: { kind: 'reject' },
    ackMode,
  });
  const anchor =
    get('retry.enabled') ??
    get('retry.max-retries') ??
    get('retry.max-attempts') ??
    get('default-requeue-rejected') ??
    view.entries.find((e) => e.key.startsWith(BOOT_LISTENER));
  return {
    consumer: { label: `Spring Boot listener (${type})`, prefetch, behaviour },
    source: src.build(anchor?.line ?? 1, { concurrency }),
  };
}

export function readSpringBoot(file: AppFile, opts: ReadOptions = {}): AppReading {
  const view = readConfigText(file.name, file.text, opts.springProfiles);
  if (!hasBootListener(view))
    throw new AppConfigFailure({
      file: file.name,
      message: 'no spring.rabbitmq.listener.* settings: nothing says how a RabbitMQ listener behaves',
    });
  const app = view.get('spring.application.name')?.value.trim() || 'app';
  const { consumer, source } = bootListener(file, view);
  const q = `${app}.queue`;
  const id = `${app}-listener`;
  const c: ConsumerSpec = { id, queue: q, ...consumer };
  const notes = [
    {
      line: 1,
      text: `Spring Boot declares no queue: the listener reads a stand-in queue "${q}" (give --definitions for the real topology)`,
    },
    ...view.inactiveProfiles.map((p) => ({
      line: p.line,
      text: `the document for profile "${p.profile}" is not active (activate it with --spring-profile)`,
    })),
  ];
  return {
    framework: 'spring-boot',
    exchanges: [],
    queues: [{ name: q, durable: true, auto_delete: false, arguments: {} }],
    bindings: [],
    consumers: [c],
    publishers: [{ id: `${app}-publisher`, exchange: '', routingKey: q, bodyPrefix: 'm' }],
    sources: {
      [consumerNodeId(id)]: source,
      [queueNodeId(q)]: { framework: 'spring-boot', file: file.name, line: source.line },
    },
    notes,
  };
}
