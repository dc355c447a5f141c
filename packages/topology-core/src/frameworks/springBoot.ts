/**
 * Spring Boot's `spring.rabbitmq.listener.*` (application.yml / .properties, profiles, the
 * environment): the container every @RabbitListener gets. Boot declares no queue: the listener
 * reads the work queues of --definitions or, without them, one stand-in queue named after the
 * application. Boot 4 renamed `retry.max-attempts` (attempts in all) to `retry.max-retries`
 * (retries after the first delivery) and ignores the old key: the file is read as the Boot line told
 * (`--spring-boot`), else as Boot 4 when it writes only `max-retries`, else as Boot 2/3, said in its settings.
 */
import type { ConsumerSpec } from '../model/consumer.js';
import type { NodeSource } from '../model/source.js';
import { buildListenerTemplate } from './read/listenerTemplate.js';
import { springListenerBehaviour } from './read/springListener.js';
import { SPRING_BOOT_KEYS } from './read/springBootKeys.js';
import { keyNote } from './read/keyTable.js';
import { readSettings, row } from './read/settingsTable.js';
import { SourceBuilder } from './read/sourceBuilder.js';
import { inactiveProfileNotes, type ConfigView } from './read/configText.js';
import type { AppFrameworkDef, AppInput, AppReading } from './types.js';
import { FRAMEWORK_TRAITS } from './traits.js';
import { AppConfigFailure } from './types.js';

export const BOOT_LISTENER = 'spring.rabbitmq.listener.';

const BOOT =
  'https://docs.spring.io/spring-boot/appendix/application-properties/index.html#appendix.application-properties.integration';
const BOOT_PROPS_SRC =
  'https://github.com/spring-projects/spring-boot/blob/main/module/spring-boot-rabbitmq/src/main/java/org/springframework/boot/rabbitmq/autoconfigure/RabbitProperties.java';
const AMQP_CONTAINER = 'https://docs.spring.io/spring-amqp/reference/amqp/containerAttributes.html';

const D = {
  retryEnabled: { value: 'false', cite: BOOT },
  /** Boot 2.x/3.x `max-attempts`: attempts in all */
  maxAttempts: { value: '3', cite: BOOT },
  /** Boot 4 `max-retries`: retries after the first attempt (RabbitProperties.Retry#maxRetries) */
  maxRetries: { value: '3', cite: BOOT_PROPS_SRC },
  initialInterval: { value: '1000ms', cite: BOOT },
  multiplier: { value: '1', cite: BOOT },
  maxInterval: { value: '10000ms', cite: BOOT },
  stateless: { value: 'true', cite: BOOT },
  /** unset in Boot: the container's own default applies */
  defaultRequeueRejected: { value: 'true', cite: AMQP_CONTAINER },
  acknowledgeMode: { value: 'auto', cite: AMQP_CONTAINER },
  prefetch: { value: '250', cite: AMQP_CONTAINER },
  concurrency: { value: '1', cite: AMQP_CONTAINER },
  /** with retry on and no MessageRecoverer bean, Boot's RabbitAnnotationDrivenConfiguration uses RejectAndDontRequeueRecoverer */
  recoverer: {
    value: 'RejectAndDontRequeueRecoverer',
    cite: 'https://docs.spring.io/spring-boot/reference/messaging/amqp.html#messaging.amqp.receiving',
  },
} as const;

export const hasBootListener = (v: ConfigView, input?: AppInput): boolean =>
  v.entries.some((e) => e.key.startsWith(BOOT_LISTENER)) ||
  (input?.env.all().some((x) => /^SPRING_RABBITMQ_LISTENER_/.test(x.name)) ?? false);

interface BootSettings {
  retryEnabled: boolean;
  initialMs: number;
  multiplier: number;
  maxMs: number;
  stateless: boolean;
  requeueRejected: boolean;
  ackMode: 'auto' | 'manual' | 'none';
  prefetch: number;
  concurrency: number;
}

/** the listener's settings under `spring.rabbitmq.listener.<type>.`, as a table (the retry count is read apart: its key depends on the Boot version) */
const rows = (concurrencyKey: string) => [
  row<BootSettings, 'boolean'>({
    key: 'retry.enabled',
    type: 'boolean',
    default: D.retryEnabled,
    apply: (s, v) => (s.retryEnabled = v),
  }),
  row<BootSettings, 'duration'>({
    key: 'retry.initial-interval',
    type: 'duration',
    default: D.initialInterval,
    apply: (s, v) => (s.initialMs = v),
  }),
  row<BootSettings, 'number'>({
    key: 'retry.multiplier',
    type: 'number',
    default: D.multiplier,
    apply: (s, v) => (s.multiplier = v),
  }),
  row<BootSettings, 'duration'>({
    key: 'retry.max-interval',
    type: 'duration',
    default: D.maxInterval,
    apply: (s, v) => (s.maxMs = v),
  }),
  row<BootSettings, 'boolean'>({
    key: 'retry.stateless',
    type: 'boolean',
    default: D.stateless,
    apply: (s, v) => (s.stateless = v),
  }),
  row<BootSettings, 'boolean'>({
    key: 'default-requeue-rejected',
    type: 'boolean',
    default: D.defaultRequeueRejected,
    apply: (s, v) => (s.requeueRejected = v),
  }),
  row<BootSettings, 'string'>({
    key: 'acknowledge-mode',
    type: 'string',
    default: D.acknowledgeMode,
    apply: (s, v) => (s.ackMode = /^none$/i.test(v) ? 'none' : /^manual$/i.test(v) ? 'manual' : 'auto'),
  }),
  row<BootSettings, 'int'>({
    key: 'prefetch',
    type: 'int',
    default: D.prefetch,
    apply: (s, v) => (s.prefetch = Math.min(65535, Math.max(0, v))),
  }),
  row<BootSettings, 'int'>({
    key: concurrencyKey,
    type: 'int',
    default: D.concurrency,
    apply: (s, v) => (s.concurrency = Math.max(1, v)),
  }),
];

/** Spring Boot 4 reads `retry.max-retries` and ignores `max-attempts`; Boot 2/3 the other way round. */
export type BootLine = 3 | 4;

/** `--spring-boot 4.0` (or 4, 4.0.7) -> 4; 2.x and 3.x -> 3; anything else undefined (the CLI refuses it) */
export function bootLineOf(version: string): BootLine | undefined {
  const m = /^\s*(\d+)(?:\.\d+){0,2}\s*$/.exec(version);
  if (!m) return undefined;
  const major = Number(m[1]);
  return major === 4 ? 4 : major === 2 || major === 3 ? 3 : undefined;
}

/**
 * The Boot line the file is read as, said in the settings: as told (--spring-boot), else Boot 4 when
 * the file writes only Boot 4's max-retries, else Boot 3 (the default).
 */
function readBootLine(input: AppInput, view: ConfigView, p: string, src: SourceBuilder): BootLine {
  const told = input.opts.springBoot;
  if (told !== undefined) {
    const line = bootLineOf(told);
    if (line === undefined)
      throw new AppConfigFailure({
        file: input.file.name,
        message: `--spring-boot must be a Spring Boot release such as 3.5 or 4.0, got ${JSON.stringify(told)}`,
      });
    src.told('Spring Boot', `${told} (read as Boot ${line === 4 ? '4' : '2/3'})`, `--spring-boot ${told}`);
    return line;
  }
  if (view.get(`${p}retry.max-retries`) && !view.get(`${p}retry.max-attempts`)) {
    src.told(
      'Spring Boot',
      '4',
      "not told: the file writes only Boot 4's max-retries; --spring-boot 3.5 reads it as Boot 3",
    );
    return 4;
  }
  src.told('Spring Boot', '2/3', "not told: import-app's default; --spring-boot 4.0 reads the file as Boot 4 runs it");
  return 3;
}

/** Attempts in all, as the Boot line reads them: `max-retries` + 1 on Boot 4, `max-attempts` on Boot 2/3; the other key is named as ignored. */
function readAttempts(view: ConfigView, p: string, src: SourceBuilder, file: string, boot: BootLine): number {
  const attemptsE = view.get(`${p}retry.max-attempts`);
  const retriesE = view.get(`${p}retry.max-retries`);
  const int = (e: { key: string; value: string; line: number; file: string }): number => {
    const n = Number(e.value.trim());
    if (e.value.trim() === '' || !Number.isFinite(n))
      throw new AppConfigFailure({
        file: e.file ?? file,
        line: e.line,
        message: `${e.key} must be a number, got "${e.value}"`,
      });
    return Math.trunc(n);
  };
  if (boot === 4) {
    if (attemptsE)
      src.note(
        'ignored-key',
        attemptsE.line,
        retriesE
          ? `${attemptsE.key} is ignored next to max-retries (Spring Boot 4 reads max-retries only)`
          : `${attemptsE.key} is ignored by Spring Boot 4, which reads max-retries (default ${D.maxRetries.value} retries: ${Number(D.maxRetries.value) + 1} attempts)`,
        attemptsE.key,
        {
          file: attemptsE.file,
          fix: retriesE
            ? `Remove ${attemptsE.key}: Spring Boot 4 reads max-retries only.`
            : `On Spring Boot 4 write ${attemptsE.key.replace(/max-attempts$/, 'max-retries')}: ${Math.max(0, int(attemptsE) - 1)} (retries after the first delivery).`,
        },
      );
    if (retriesE) {
      src.readValue(retriesE.key, retriesE);
      return int(retriesE) + 1;
    }
    return Number(src.defaulted(`${p}retry.max-retries`, D.maxRetries)) + 1;
  }
  if (retriesE)
    src.note(
      'ignored-key',
      retriesE.line,
      `${retriesE.key} is Spring Boot 4's key: Spring Boot 2/3 ignore it and read max-attempts`,
      retriesE.key,
      {
        file: retriesE.file,
        fix: `On Spring Boot 2/3 write ${retriesE.key.replace(/max-retries$/, 'max-attempts')}: ${int(retriesE) + 1} (attempts in all), or read the file as Boot 4 (--spring-boot 4.0).`,
      },
    );
  if (attemptsE) {
    src.readValue(attemptsE.key, attemptsE);
    const n = int(attemptsE);
    src.note(
      'ignored-key',
      attemptsE.line,
      `${attemptsE.key} is read as Spring Boot 2/3 does (${n} attempts in all); Spring Boot 4 ignores it and applies max-retries' default of ${D.maxRetries.value} retries (${Number(D.maxRetries.value) + 1} attempts)`,
      attemptsE.key,
      {
        file: attemptsE.file,
        fix: `On Spring Boot 4 write ${attemptsE.key.replace(/max-attempts$/, 'max-retries')}: ${Math.max(0, n - 1)} (retries after the first delivery); keep max-attempts only while the application runs on Boot 2/3.`,
      },
    );
    return n;
  }
  return Number(src.defaulted(`${p}retry.max-attempts`, D.maxAttempts));
}

/** Keys under spring.rabbitmq.listener. that Boot does not read, each named with its line (the retry count's keys are read apart). */
function unknownKeys(view: ConfigView, src: SourceBuilder): void {
  for (const e of view.entries) {
    if (!e.key.startsWith(BOOT_LISTENER) || /\.retry\.max-(attempts|retries)$/.test(e.key)) continue;
    const n = keyNote(SPRING_BOOT_KEYS, e.key.slice(BOOT_LISTENER.length), e.key, e.line, e.file);
    if (n) src.addNote(n);
  }
}

/** The listener settings of a Boot configuration as a consumer template (its queue filled in by import-app). */
export function bootListener(
  input: AppInput,
  view: ConfigView,
): { consumer: Omit<ConsumerSpec, 'queue' | 'id'>; source: NodeSource } {
  const type = view.get(`${BOOT_LISTENER}type`)?.value.toLowerCase() === 'direct' ? 'direct' : 'simple';
  const p = `${BOOT_LISTENER}${type}.`;
  const src = new SourceBuilder('spring-boot', input.file.name);
  const boot = readBootLine(input, view, p, src);
  const maxAttempts = readAttempts(view, p, src, input.file.name, boot);
  const s = readSettings<BootSettings>(
    rows(type === 'direct' ? 'consumers-per-queue' : 'concurrency'),
    {
      retryEnabled: false,
      initialMs: 1000,
      multiplier: 1,
      maxMs: 10000,
      stateless: true,
      requeueRejected: true,
      ackMode: 'auto',
      prefetch: 250,
      concurrency: 1,
    },
    src,
    (k) => view.get(p + k),
    (k) => p + k,
  );
  if (s.ackMode === 'manual') {
    const e = view.get(`${p}acknowledge-mode`)!;
    src.note(
      'not-understood',
      e.line,
      'acknowledge-mode manual: the listener code settles each message; read here as the container does for a thrown exception',
      undefined,
      { file: e.file },
    );
  }
  if (s.retryEnabled) src.defaulted('recoverer', D.recoverer);
  unknownKeys(view, src);
  const behaviour = springListenerBehaviour({
    retryEnabled: s.retryEnabled,
    stateless: s.stateless,
    maxAttempts: Math.max(1, maxAttempts),
    backoff: { initialMs: s.initialMs, multiplier: Math.max(1, s.multiplier), maxMs: Math.max(s.initialMs, s.maxMs) },
    requeueRejected: s.requeueRejected,
    recoverer: { kind: 'reject' },
    ackMode: s.ackMode,
  });
  const anchor =
    view.get(`${p}retry.enabled`) ??
    view.get(`${p}retry.max-retries`) ??
    view.get(`${p}retry.max-attempts`) ??
    view.get(`${p}default-requeue-rejected`) ??
    view.entries.find((e) => e.key.startsWith(BOOT_LISTENER));
  // an anchor set by the environment: the node stays in the configuration file
  const inFile = anchor && !anchor.via?.startsWith('env') ? anchor : undefined;
  return {
    consumer: { label: `Spring Boot listener (${type})`, prefetch: s.prefetch, behaviour },
    source: src.build(inFile?.line ?? 1, { concurrency: s.concurrency }, inFile?.file ?? input.file.name),
  };
}

function readSpringBoot(input: AppInput): AppReading {
  const view = input.config();
  if (!hasBootListener(view, input))
    throw new AppConfigFailure({
      file: input.file.name,
      message: 'no spring.rabbitmq.listener.* settings: nothing says how a RabbitMQ listener behaves',
    });
  const app = view.get('spring.application.name')?.value.trim() || 'app';
  const { consumer, source } = bootListener(input, view);
  const standIn = `${app}.queue`;
  return {
    framework: 'spring-boot',
    exchanges: [],
    queues: [],
    bindings: [],
    consumers: [],
    publishers: [],
    sources: {},
    notes: inactiveProfileNotes(view),
    listener: buildListenerTemplate({
      consumer,
      source,
      standIn,
      standInId: `${app}-listener`,
      standInNote: `Spring Boot declares no queue: the listener reads a stand-in queue "${standIn}" (give --definitions for the real topology)`,
    }),
  };
}

export const springBoot: AppFrameworkDef = {
  id: 'spring-boot',
  ...FRAMEWORK_TRAITS['spring-boot'],
  fileKinds: ['config'],
  looksFor: 'spring.rabbitmq.listener.*',
  detect: (input) => hasBootListener(input.config(), input),
  read: readSpringBoot,
  defaults: D,
  keys: SPRING_BOOT_KEYS,
};
