/**
 * Where a node of a design came from when it was read from an application's configuration
 * (`retry-studio import-app`): the file and line, the framework, and the settings that shaped it
 * (each with its line, or the framework default and where that default is documented). The lint
 * rules point at these lines; the inspector shows them.
 */
import { isForbiddenKey, pathKey } from './names.js';
import { isPlainObject, type IssueSink } from './validateResult.js';

export const APP_FRAMEWORKS = [
  'spring-boot',
  'spring-cloud-stream',
  'spring-amqp',
  'masstransit',
  'nservicebus',
  'celery',
  'rascal',
  'nestjs-rabbitmq',
] as const;
export type AppFramework = (typeof APP_FRAMEWORKS)[number];

export const isAppFramework = (v: unknown): v is AppFramework =>
  typeof v === 'string' && (APP_FRAMEWORKS as readonly string[]).includes(v);

export interface SourceSetting {
  /** the key as the framework spells it (`spring.rabbitmq.listener.simple.retry.max-attempts`, `Immediate.NumberOfRetries`) */
  readonly key: string;
  /** the value read, or the default applied */
  readonly value: string;
  /** 1-based line of the file where it was read; absent when the framework default applies */
  readonly line?: number;
  /** for a default: the documentation or source that states it */
  readonly cite?: string;
  /** the file the value was read from, when it is not the node's own (a profile file, a .env, a Deployment) */
  readonly file?: string;
  /** how it got there, when not written plainly: `env SPRING_RABBITMQ_...`, `profile prod`, `${retry.max}`, `constant RETRY_MAX (line 12)`; with no line, the option that told it (`--spring-boot 4.0`) */
  readonly via?: string;
}

/**
 * `ignored-key`: a key the framework ignores (unknown, misspelt, or renamed in this version);
 * `not-understood`: code or a value the reader could not turn into behaviour;
 * `trap`: a setting that does what few expect (a queue that expires with its messages).
 */
export type SourceNoteKind = 'ignored-key' | 'not-understood' | 'trap';

const NOTE_KINDS: readonly string[] = ['ignored-key', 'not-understood', 'trap'] satisfies readonly SourceNoteKind[];

/** Something the reader saw and did not turn into behaviour: a key the framework ignores, code it could not read. */
export interface SourceNote {
  readonly kind: SourceNoteKind;
  readonly line: number;
  readonly text: string;
  /** the key concerned (ignored-key, trap) */
  readonly key?: string;
  /** the file, when it is not the node's own */
  readonly file?: string;
  /** what to write instead, in the framework's terms */
  readonly fix?: string;
  /**
   * the code that decides what a failure does is not read (an application's own error handler):
   * the failure path modelled is a guess, and prove-app's prediction says "unknown"
   */
  readonly failurePathUnread?: true;
}

export interface NodeSource {
  readonly framework: AppFramework;
  /** the file as the user named it */
  readonly file: string;
  /** 1-based line where the node is configured */
  readonly line: number;
  readonly settings?: readonly SourceSetting[];
  readonly notes?: readonly SourceNote[];
  /** listener threads / consumers per instance, when the configuration says (storm arithmetic) */
  readonly concurrency?: number;
  /** whether the framework adds jitter to its back-off (Celery's retry_jitter); absent: none */
  readonly jitter?: boolean;
}

/** The setting of a source by key (the last one read wins, as in the frameworks). */
export const sourceSetting = (s: NodeSource | undefined, key: string): SourceSetting | undefined =>
  s?.settings?.filter((x) => x.key === key).at(-1);

function isLine(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1;
}

/** `sources` of a design document: node id -> NodeSource. */
export function checkSources(sink: IssueSink, v: unknown): void {
  if (v === undefined) return;
  if (!isPlainObject(v)) return sink.error('sources', 'field-type', 'sources must be an object keyed by node id');
  for (const [k, s] of Object.entries(v)) {
    const p = pathKey('sources', k);
    if (isForbiddenKey(k)) {
      sink.error(p, 'forbidden-key', `the key "${k}" is not allowed`);
      continue;
    }
    if (!isPlainObject(s)) {
      sink.error(p, 'field-type', 'a source must be {framework, file, line}');
      continue;
    }
    if (!isAppFramework(s.framework))
      sink.error(`${p}.framework`, 'field-type', `framework must be one of ${APP_FRAMEWORKS.join(', ')}`);
    if (typeof s.file !== 'string' || s.file === '')
      sink.error(`${p}.file`, 'field-type', 'file must be a non-empty string');
    if (!isLine(s.line)) sink.error(`${p}.line`, 'field-type', 'line must be an integer >= 1');
    if (
      s.settings !== undefined &&
      !(
        Array.isArray(s.settings) &&
        s.settings.every(
          (x) =>
            isPlainObject(x) &&
            typeof x.key === 'string' &&
            typeof x.value === 'string' &&
            (x.line === undefined || isLine(x.line)),
        )
      )
    )
      sink.error(`${p}.settings`, 'field-type', 'settings must be [{key, value, line?, cite?}]');
    if (
      s.notes !== undefined &&
      !(
        Array.isArray(s.notes) &&
        s.notes.every(
          (x) =>
            isPlainObject(x) && NOTE_KINDS.includes(x.kind as string) && isLine(x.line) && typeof x.text === 'string',
        )
      )
    )
      sink.error(`${p}.notes`, 'field-type', `notes must be [{kind: ${NOTE_KINDS.join('|')}, line, text}]`);
    if (s.concurrency !== undefined && !isLine(s.concurrency))
      sink.error(`${p}.concurrency`, 'field-type', 'concurrency must be an integer >= 1');
    if (s.jitter !== undefined && typeof s.jitter !== 'boolean')
      sink.error(`${p}.jitter`, 'field-type', 'jitter must be true or false');
  }
}
