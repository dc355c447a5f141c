/**
 * Spring's configuration files as flat entries (`a.b.c` -> value, line): application.yml (every
 * document, `---` separated) and application.properties (`#---` separates documents, Boot 2.4+).
 * A document activated by a profile (`spring.config.activate.on-profile`, or the older
 * `spring.profiles`) applies only when that profile is active; later documents override earlier
 * ones, as Spring Boot merges them (docs.spring.io/spring-boot/reference/features/external-config.html#features.external-config.files.multi-document).
 */
import { LineCounter, parseAllDocuments, isMap, isSeq, isScalar, type Node } from 'yaml';
import { AppConfigFailure } from './types.js';

export interface ConfigEntry {
  /** the key in kebab case (relaxed binding: `maxAttempts` and `max_attempts` read as `max-attempts`) */
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/** Spring's relaxed binding, one segment: camelCase and snake_case -> kebab-case, lower case. */
export const kebab = (segment: string): string =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();

/** A key in kebab case; a map key (the segment after `bindings`, a binding's name) is kept as written, as Spring binds map keys. */
const normalizeKey = (key: string): string =>
  key
    .split('.')
    .map((s, i, all) => (s.startsWith('[') || (i > 0 && all[i - 1] === 'bindings') ? s : kebab(s)))
    .join('.');

type Doc = ConfigEntry[];

function yamlDocs(file: string, text: string): Doc[] {
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: Doc[] = [];
  for (const d of list) {
    const e = d.errors[0];
    if (e) {
      const at = lc.linePos(e.pos[0]);
      throw new AppConfigFailure({
        file,
        line: at.line,
        column: at.col,
        message: `YAML syntax error: ${e.message.split('\n')[0]}`,
      });
    }
    const entries: ConfigEntry[] = [];
    const walk = (node: Node | null | undefined, prefix: string, keyPos: number | undefined): void => {
      if (node === null || node === undefined) return;
      if (isMap(node)) {
        for (const pair of node.items) {
          const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
          const pos = isScalar(pair.key) && pair.key.range ? pair.key.range[0] : keyPos;
          walk(pair.value as Node, prefix ? `${prefix}.${k}` : k, pos);
        }
        return;
      }
      if (isSeq(node)) {
        node.items.forEach((it, i) => walk(it as Node, `${prefix}[${i}]`, (it as Node)?.range?.[0] ?? keyPos));
        return;
      }
      if (isScalar(node)) {
        const pos = keyPos ?? node.range?.[0] ?? 0;
        entries.push({
          key: normalizeKey(prefix),
          value: node.value === null ? '' : String(node.value),
          line: lc.linePos(pos).line,
        });
      }
    };
    walk(d.contents as Node, '', undefined);
    out.push(entries);
  }
  return out;
}

/** java.util.Properties: `key=value`, `key: value` or `key value`; `#`/`!` comments; `\` continues a line. */
function propertiesDocs(file: string, text: string): Doc[] {
  const docs: Doc[] = [[]];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let raw = lines[i]!.replace(/^\s+/, '');
    if (/^#---\s*$/.test(raw) || /^!---\s*$/.test(raw)) {
      docs.push([]);
      continue;
    }
    if (raw === '' || raw.startsWith('#') || raw.startsWith('!')) continue;
    while (/(^|[^\\])(\\\\)*\\$/.test(raw) && i + 1 < lines.length)
      raw = raw.slice(0, -1) + lines[++i]!.replace(/^\s+/, '');
    const m = /^((?:\\.|[^=:\s\\])+)\s*[=:\s]\s*(.*)$/.exec(raw) ?? /^((?:\\.|[^=:\s\\])+)$/.exec(raw);
    if (!m)
      throw new AppConfigFailure({
        file,
        line: start,
        column: 1,
        message: `properties syntax error: cannot read "${raw.slice(0, 60)}"`,
      });
    const key = m[1]!.replace(/\\(.)/g, '$1');
    const value = (m[2] ?? '').replace(/\\(.)/g, '$1').trim();
    docs[docs.length - 1]!.push({ key: normalizeKey(key), value, line: start });
  }
  return docs;
}

const PROFILE_KEYS = ['spring.config.activate.on-profile', 'spring.profiles'];

/** The profile expression a document is activated on (`prod`, `prod | eu`, `!dev`), or undefined. */
function profileOf(doc: Doc): string | undefined {
  for (const e of doc)
    if (PROFILE_KEYS.includes(e.key) || PROFILE_KEYS.some((k) => e.key.startsWith(`${k}.[`))) return e.value;
  return undefined;
}

const profileActive = (expr: string, active: readonly string[]): boolean =>
  expr
    .split(/[|,]/)
    .map((s) => s.trim())
    .some((p) => (p.startsWith('!') ? !active.includes(p.slice(1)) : active.includes(p)));

export interface ConfigView {
  /** the value of a key (kebab case), the last active document winning */
  readonly get: (key: string) => ConfigEntry | undefined;
  /** every active entry (later documents after earlier ones) */
  readonly entries: readonly ConfigEntry[];
  /** profile documents left out, with their line (the reader says so) */
  readonly inactiveProfiles: readonly { readonly profile: string; readonly line: number }[];
}

export function readConfigText(file: string, text: string, activeProfiles: readonly string[] = []): ConfigView {
  const docs = /\.properties$/i.test(file) ? propertiesDocs(file, text) : yamlDocs(file, text);
  const entries: ConfigEntry[] = [];
  const inactive: { profile: string; line: number }[] = [];
  for (const d of docs) {
    const p = profileOf(d);
    if (p !== undefined && !profileActive(p, activeProfiles)) {
      if (d.length > 0) inactive.push({ profile: p, line: d[0]!.line });
      continue;
    }
    entries.push(...d);
  }
  const last = new Map<string, ConfigEntry>();
  for (const e of entries) last.set(e.key, e);
  return { get: (k) => last.get(k), entries, inactiveProfiles: inactive };
}
