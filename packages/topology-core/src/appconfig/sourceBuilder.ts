/** Collects the settings a reader used (read with their line, or defaulted with a citation). */
import type { AppFramework, NodeSource, SourceNote, SourceSetting } from '../model/source.js';
import type { FrameworkDefault } from './defaults.js';

export class SourceBuilder {
  readonly settings: SourceSetting[] = [];
  readonly notes: SourceNote[] = [];

  constructor(
    readonly framework: AppFramework,
    readonly file: string,
  ) {}

  read(key: string, value: string, line: number): string {
    this.settings.push({ key, value, line });
    return value;
  }

  defaulted(key: string, d: FrameworkDefault): string {
    this.settings.push({ key, value: d.value, cite: d.cite });
    return d.value;
  }

  /** the entry's value when present, else the default (recorded either way) */
  value(
    key: string,
    entry: { readonly value: string; readonly line: number } | undefined,
    d: FrameworkDefault,
  ): string {
    return entry ? this.read(key, entry.value, entry.line) : this.defaulted(key, d);
  }

  note(kind: SourceNote['kind'], line: number, text: string, key?: string): void {
    this.notes.push({ kind, line, text, ...(key !== undefined ? { key } : {}) });
  }

  build(line: number, extra: Pick<NodeSource, 'concurrency' | 'jitter'> = {}): NodeSource {
    return {
      framework: this.framework,
      file: this.file,
      line,
      settings: [...this.settings],
      ...(this.notes.length > 0 ? { notes: [...this.notes] } : {}),
      ...(extra.concurrency !== undefined ? { concurrency: extra.concurrency } : {}),
      ...(extra.jitter !== undefined ? { jitter: extra.jitter } : {}),
    };
  }
}

export const bool = (v: string): boolean | undefined =>
  /^true$/i.test(v.trim()) ? true : /^false$/i.test(v.trim()) ? false : undefined;
