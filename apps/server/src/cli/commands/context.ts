/** What a CLI command gets: its arguments, output streams and file access (injectable for tests). */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatIssues, loadDocument, type Design, type DocumentKind, type ValidationIssue } from '@retry-studio/topology-core';

export interface CliIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** the directory relative paths are resolved against */
  readonly cwd: string;
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const nodeIo = (): CliIo => ({
  out: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
  cwd: process.env.INIT_CWD ?? process.cwd(),
});

export async function readText(io: CliIo, file: string): Promise<string> {
  const p = path.resolve(io.cwd, file);
  try {
    return await readFile(p, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `cannot read ${file}: no such file` : code === 'EISDIR' ? `${file} is a directory` : `cannot read ${file}: ${code ?? (e as Error).message}`);
  }
}

export async function writeText(io: CliIo, file: string, text: string): Promise<void> {
  await writeFile(path.resolve(io.cwd, file), text, 'utf8');
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
}

/** Reads a design JSON or a RabbitMQ definitions JSON; bad input -> CliError naming the fields. */
export async function loadFile(io: CliIo, file: string, opts: { vhost?: string | undefined } = {}): Promise<LoadedFile> {
  const text = await readText(io, file);
  const name = path.basename(file).replace(/\.json$/i, '');
  const r = loadDocument(text, { name, ...(opts.vhost !== undefined ? { vhost: opts.vhost } : {}) });
  if (!r.ok) throw new CliError(`${file}: invalid ${r.kind ?? 'input'}\n${indent(formatIssues(r.errors))}`);
  return { kind: r.kind, design: r.design, warnings: r.warnings };
}

export const indent = (s: string, by = '  '): string =>
  s
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
