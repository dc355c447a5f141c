/** Collects the settings a reader used (read with their line and source, or defaulted with a citation). */
import type { AppFramework, NodeSource, SourceNote, SourceSetting } from '../../model/source.js';

/**
 * A framework default applied where a key is absent, with the documentation or source that
 * states it. A reader records the default it applied as a setting without a line, citing this.
 */
export interface FrameworkDefault {
  readonly value: string;
  readonly cite: string;
}

/** A value as read: where it is written, and how it got there when not plainly (an environment variable, a placeholder). */
export interface ReadValue {
  readonly value: string;
  readonly line: number;
  readonly file?: string;
  readonly via?: string;
}

export class SourceBuilder {
  readonly settings: SourceSetting[] = [];
  readonly notes: SourceNote[] = [];

  constructor(
    readonly framework: AppFramework,
    readonly file: string,
  ) {}

  read(key: string, value: string, line: number, from: { file?: string; via?: string } = {}): string {
    this.settings.push({
      key,
      value,
      line,
      ...(from.file !== undefined && from.file !== this.file ? { file: from.file } : {}),
      ...(from.via !== undefined ? { via: from.via } : {}),
    });
    return value;
  }

  /** a value as read, with its own file and how it got there */
  readValue(key: string, v: ReadValue): string {
    return this.read(key, v.value, v.line, v);
  }

  /** a value the user gave on the command line rather than in a file (`--spring-boot 4.0`) */
  told(key: string, value: string, via: string): string {
    this.settings.push({ key, value, via });
    return value;
  }

  defaulted(key: string, d: FrameworkDefault): string {
    this.settings.push({ key, value: d.value, cite: d.cite });
    return d.value;
  }

  /** the entry's value when present, else the default (recorded either way) */
  value(key: string, entry: ReadValue | undefined, d: FrameworkDefault): string {
    return entry ? this.readValue(key, entry) : this.defaulted(key, d);
  }

  note(
    kind: SourceNote['kind'],
    line: number,
    text: string,
    key?: string,
    extra: Pick<SourceNote, 'file' | 'fix' | 'failurePathUnread'> = {},
  ): void {
    this.notes.push({
      kind,
      line,
      text,
      ...(key !== undefined ? { key } : {}),
      ...(extra.file !== undefined && extra.file !== this.file ? { file: extra.file } : {}),
      ...(extra.fix !== undefined ? { fix: extra.fix } : {}),
      ...(extra.failurePathUnread ? { failurePathUnread: true as const } : {}),
    });
  }

  addNote(n: SourceNote): void {
    this.notes.push(n.file === this.file ? stripUndefined({ ...n, file: undefined }) : n);
  }

  /** `file`: the node's file when it is not the builder's (a listener anchored in a profile file) */
  build(line: number, extra: Pick<NodeSource, 'concurrency' | 'jitter'> = {}, file = this.file): NodeSource {
    const rebase = <T extends { readonly file?: string }>(x: T): T =>
      file === this.file ? x : { ...x, file: (x.file ?? this.file) === file ? undefined : (x.file ?? this.file) };
    return {
      framework: this.framework,
      file,
      line,
      settings: this.settings.map((x) => stripUndefined(rebase(x))),
      ...(this.notes.length > 0 ? { notes: this.notes.map((n) => stripUndefined(rebase(n))) } : {}),
      ...(extra.concurrency !== undefined ? { concurrency: extra.concurrency } : {}),
      ...(extra.jitter !== undefined ? { jitter: extra.jitter } : {}),
    };
  }
}

const stripUndefined = <T extends object>(n: T): T =>
  Object.fromEntries(Object.entries(n).filter(([, v]) => v !== undefined)) as unknown as T;

export const bool = (v: string): boolean | undefined =>
  /^true$/i.test(v.trim()) ? true : /^false$/i.test(v.trim()) ? false : undefined;
