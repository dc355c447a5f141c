/** What the application-configuration readers take and give. */
import type { AppFramework, NodeSource } from '../model/source.js';
import type { ConsumerSpec } from '../model/consumer.js';
import type { BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { PublisherSpec } from '../model/publisher.js';

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

/** What one reader found in one file: objects the framework declares and the consumers it runs. */
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
  readonly notes: readonly { readonly line: number; readonly text: string }[];
}

export interface ReadOptions {
  /** Spring profiles to activate (documents with `spring.config.activate.on-profile`); default none */
  readonly springProfiles?: readonly string[];
}
