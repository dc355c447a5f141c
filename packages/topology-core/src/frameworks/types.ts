/**
 * What a framework is to import-app (one object per framework, registered in registry.ts), and
 * what its reader takes and gives.
 */
import type { AppFramework, NodeSource } from '../model/source.js';
import type { ConsumerSpec } from '../model/consumer.js';
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { PublisherSpec } from '../model/publisher.js';
import type { FrameworkDefault } from './read/sourceBuilder.js';
import type { ConfigView } from './read/configText.js';
import type { CodeText } from './read/codeText.js';
import type { JsValues } from './read/jsLiteral.js';
import type { Environment } from './read/environment.js';
import type { KeyTable } from './read/keyTable.js';

/** One file the user named: its name as given and its text. */
export interface AppFile {
  readonly name: string;
  readonly text: string;
}

/** A bad input: the file, and the line and column when known (1-based). */
export interface AppConfigError {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export class AppConfigFailure extends Error {
  constructor(readonly error: AppConfigError) {
    super(
      `${error.file}${error.line !== undefined ? `:${error.line}${error.column !== undefined ? `:${error.column}` : ''}` : ''}: ${error.message}`,
    );
  }
}

/** A note on the file rather than on one node. */
export interface ReadingNote {
  readonly line: number;
  readonly text: string;
  /** when not the reading's own file */
  readonly file?: string;
}

/**
 * A listener whose queues the reader cannot name (Spring Boot's container, a Java factory with no
 * @RabbitListener): import-app puts it on the work queues of --definitions, else of the topology
 * read, else on `standIn`.
 */
export interface ListenerTemplate {
  readonly consumer: Omit<ConsumerSpec, 'id' | 'queue'>;
  readonly source: NodeSource;
  /** the consumer id on queue q */
  readonly idFor: (queue: string) => string;
  /** the queue it reads when nothing names one, and what the notes say then */
  readonly standIn: string;
  readonly standInNote: string;
}

/**
 * What the real framework is handed to run one consumer, as the reader evaluated the file (prove-app
 * runs it): Rascal's configuration object, the subscription and the recovery the application passes
 * to ackOrNack; NestJS's module options, the handler's decorator options and what its body does.
 */
export type RunnableConsumer = Readonly<Record<string, unknown>>;

/** What one reader found in one input: objects the framework declares and the consumers it runs. */
export interface AppReading {
  readonly framework: AppFramework;
  readonly exchanges: readonly ExchangeDef[];
  readonly queues: readonly QueueDef[];
  readonly bindings: readonly BindingDef[];
  readonly consumers: readonly ConsumerSpec[];
  readonly publishers: readonly PublisherSpec[];
  /** node id -> where it came from */
  readonly sources: { readonly [nodeId: string]: NodeSource };
  /** what was seen and not turned into behaviour (file-level: code not understood, keys ignored) */
  readonly notes: readonly ReadingNote[];
  readonly listener?: ListenerTemplate;
  /** consumer id -> what the real framework is handed to run it (frameworks whose configuration is code) */
  readonly runnable?: { readonly [consumerId: string]: RunnableConsumer };
}

export interface ReadOptions {
  /** Spring profiles to activate (profile documents, `application-<profile>.yml`); default none */
  readonly springProfiles?: readonly string[];
  /** the Spring Boot release the application runs on (`3.5`, `4.0`, `2.7`...): Boot 4 reads other retry keys; default: inferred, else 3 */
  readonly springBoot?: string;
}

/** The kind of a file by its extension: what a framework is read from. */
export type { AppFileKind as FileKind } from '../model/appFileKind.js';
import type { AppFileKind as FileKind } from '../model/appFileKind.js';

/** One input as a reader sees it: its text parsed lazily, once, whichever framework asks. */
export interface AppInput {
  readonly file: AppFile;
  readonly kind: FileKind;
  /** YAML / properties as flat keys, merged with its profile files and the environment (config files) */
  readonly config: () => ConfigView;
  /** code with comments blanked, lines and brackets indexed (code files) */
  readonly code: () => CodeText;
  /** the environment the application runs with (--env files, a Deployment's env, Helm values) */
  readonly env: Environment;
  /** the other code files of the same kind given with this one (a NestJS module configured in another file) */
  readonly companions?: readonly AppInput[];
  /** Spring properties from the configuration files given beside a Java file (placeholders in annotations) */
  readonly springProperties?: ConfigView;
  readonly opts: ReadOptions;
}

/**
 * A framework, all in one place: how a file is recognised, how it is read, the defaults it
 * applies (each with where they are stated), its real keys, and the fix for each lint rule in its
 * own terms. A new framework is one such object (its file) registered in registry.ts, with its tests.
 */
export interface AppFrameworkDef {
  readonly id: AppFramework;
  readonly title: string;
  readonly fileKinds: readonly FileKind[];
  /** what detection looks for, said when a file has none of it */
  readonly looksFor: string;
  readonly detect: (input: AppInput) => boolean;
  readonly read: (input: AppInput) => AppReading;
  readonly defaults: Readonly<Record<string, FrameworkDefault>>;
  /** the framework's real keys, with the version that introduced each: a key outside is named with its line */
  readonly keys?: KeyTable;
  /** lint rule id -> the fix in this framework's terms */
  readonly fixes: Readonly<Record<string, string>>;
  /** every worker process of the application retries in step (Celery's pool), whatever the listener concurrency */
  readonly retriesInStep?: boolean;
}

/** What a reader of a JavaScript application (Rascal, NestJS) fills as it reads a file. */
export interface JsReadingContext {
  readonly code: CodeText;
  readonly values: JsValues;
  readonly file: string;
  readonly exchanges: ExchangeDef[];
  readonly queues: QueueDef[];
  readonly bindings: BindingDef[];
  readonly sources: Record<string, NodeSource>;
  readonly notes: ReadingNote[];
  /** consumer id -> what the library is handed to run it (prove-app) */
  readonly runnable: Record<string, RunnableConsumer>;
}
