/** What a CLI command gets: its arguments, output streams and file access (injectable for tests). */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  loadValue,
  parseDocumentText,
  readDocumentText,
  type DocumentKind,
  type PluginPolicyKey,
  type SkippedBinding,
} from '@retry-studio/topology-core/io';
import {
  formatIssues,
  isAppConfigFile,
  type Design,
  type OmittedField,
  type ValidationIssue,
} from '@retry-studio/topology-core/model';
import { errnoSentence, FileReadError, readUserFile } from './readUserFile.js';

export interface CliIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** the directory relative paths are resolved against */
  readonly cwd: string;
}

export class CliError extends Error {
  /** whether "run --help for usage" follows the message (a usage error's does; a broker's does not) */
  readonly usageHint: boolean;
  constructor(
    message: string,
    readonly exitCode = 1,
    opts: { usageHint?: boolean } = {},
  ) {
    super(message);
    this.usageHint = opts.usageHint ?? exitCode === 2;
  }
}

/**
 * Relative paths resolve against the working directory; `pnpm cli` (which runs in apps/server)
 * asks for the directory pnpm was started from instead (RETRY_STUDIO_INIT_CWD=1: INIT_CWD). An
 * installed retry-studio never reads INIT_CWD: inside an npm script it names another directory.
 */
export const nodeIo = (): CliIo => ({
  out: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
  cwd: process.env.RETRY_STUDIO_INIT_CWD === '1' ? (process.env.INIT_CWD ?? process.cwd()) : process.cwd(),
});

export async function readText(io: CliIo, file: string): Promise<string> {
  try {
    return await readUserFile(path.resolve(io.cwd, file));
  } catch (e) {
    if (e instanceof FileReadError) throw new CliError(`cannot read ${file}: ${e.message}`, 2);
    throw e;
  }
}

export async function writeText(io: CliIo, file: string, text: string): Promise<void> {
  try {
    await writeFile(path.resolve(io.cwd, file), text, 'utf8');
  } catch (e) {
    // a path that cannot be written is the question's fault (2); a full or failing disk is not (1)
    const code = (e as NodeJS.ErrnoException).code ?? '';
    const usage = ['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENAMETOOLONG', 'ELOOP'].includes(code);
    throw new CliError(`cannot write ${file}: ${errnoSentence(e, 'writing')}`, usage ? 2 : 1, { usageHint: false });
  }
}

/** A command's result: to the `--out` file when one is named (saying so on stderr), else to stdout. */
export async function writeOutput(io: CliIo, out: string | undefined, text: string): Promise<void> {
  if (out) {
    await writeText(io, out, text);
    io.err(`wrote ${out}\n`);
  } else io.out(text);
}

export interface LoadedFile {
  readonly kind: DocumentKind;
  readonly design: Design;
  readonly warnings: readonly ValidationIssue[];
  /** the vhost read from a definitions file (undefined: a design, or a per-vhost export) */
  readonly vhost?: string;
  /** bindings skipped because the file does not declare one of their ends */
  readonly skippedBindings?: readonly SkippedBinding[];
  /** queue and exchange fields the definitions file leaves out (some broker lines refuse them: model/definitionFields.ts) */
  readonly omittedFields?: readonly OmittedField[];
  /** policy keys a plugin defines (federation), dropped at import: a broker without the plugin refuses the file */
  readonly pluginPolicyKeys?: readonly PluginPolicyKey[];
}

/**
 * The application-configuration reader, loaded only for a file that may be one: a JSON file never is
 * (appconfig's isAppConfigFile), and a lint of a definitions file then never parses the readers of
 * Spring, MassTransit, NServiceBus and Celery (bench:cli).
 */
/** import-app's reader, loaded only for a file that is an application's configuration (lint of a definitions file stays light) */
async function appConfigReader(file: string, text: string): Promise<typeof import('./appConfigFile.js') | undefined> {
  return isAppConfigFile(file, text) ? import('./appConfigFile.js') : undefined;
}

/** Reads a design JSON, a RabbitMQ definitions JSON or an application's configuration; bad input -> CliError naming the fields. */
export async function loadFile(
  io: CliIo,
  file: string,
  opts: { vhost?: string | undefined } = {},
): Promise<LoadedFile> {
  const text = await readText(io, file);
  const app = await appConfigReader(file, text);
  if (app) return app.loadAppConfig([{ name: file, text }]);
  const name = path.basename(file).replace(/\.(json|ya?ml)$/i, '');
  // JSON, or the definitions a Kubernetes or Helm YAML file holds (the core reads both)
  const parsed = await parseDocumentText(text);
  if (!parsed.ok) throw refusedFile(file, undefined, [parsed.error]);
  const r = loadValue(parsed.value, { name, ...(opts.vhost !== undefined ? { vhost: opts.vhost } : {}) });
  if (!r.ok) throw refusedFile(file, r.kind, r.errors);
  return {
    kind: r.kind,
    design: r.design,
    warnings: [...parsed.notes, ...r.warnings],
    ...(r.vhost !== undefined ? { vhost: r.vhost } : {}),
    ...(r.skippedBindings ? { skippedBindings: r.skippedBindings } : {}),
    ...(r.omittedFields ? { omittedFields: r.omittedFields } : {}),
    ...(r.pluginPolicyKeys ? { pluginPolicyKeys: r.pluginPolicyKeys } : {}),
  };
}

/**
 * Like loadFile, but a whole-broker definitions file with objects in several vhosts (and no
 * `vhost` asked for) gives one document per vhost, in file order: commands work per vhost.
 */
export async function loadFileVhosts(
  io: CliIo,
  file: string,
  opts: { vhost?: string | undefined } = {},
): Promise<LoadedFile[]> {
  const text = await readText(io, file);
  const app = await appConfigReader(file, text);
  if (app) return [app.loadAppConfig([{ name: file, text }])];
  // the browser's Open / Import reads files through the same core function
  const r = await readDocumentText(text, {
    fileName: file,
    ...(opts.vhost !== undefined ? { vhost: opts.vhost } : {}),
  });
  if (!r.ok) throw refusedFile(file, r.kind, r.errors);
  return [...r.docs];
}

/**
 * A file that cannot be read as asked: its content is the bad news (exit 1, each field named),
 * unless what was asked is wrong (a --vhost the file does not hold: exit 2; cli/exitCodes.ts).
 */
function refusedFile(file: string, kind: string | undefined, errors: readonly ValidationIssue[]): CliError {
  const text = `${file}: invalid ${kind ?? 'input'}\n${indent(formatIssues(errors))}`;
  return new CliError(text, errors.every((e) => e.code === 'vhost-missing') ? 2 : 1);
}

/** `vhost "x": ` before a line about one vhost of several; nothing when there is one. */
export const vhostLabel = (doc: LoadedFile, several: boolean): string =>
  several && doc.vhost !== undefined ? `vhost ${JSON.stringify(doc.vhost)}: ` : '';

export const indent = (s: string, by = '  '): string =>
  s
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
