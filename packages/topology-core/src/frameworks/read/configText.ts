/**
 * Spring's configuration as it runs, as flat entries (`a.b.c` -> value, file, line):
 * application.yml (every document, `---` separated) and application.properties (`#---` separates
 * documents, Boot 2.4+); a document activated by a profile (`spring.config.activate.on-profile`, or
 * the older `spring.profiles`) applies only when that profile is active; profile files
 * (`application-prod.yml`) over the base file, `.properties` over `.yml`, environment variables
 * (relaxed binding) over both, SPRING_APPLICATION_JSON over those, later over earlier
 * (docs.spring.io/spring-boot/reference/features/external-config.html). `${name:default}` is
 * resolved against the same sources. Linear in the text; a file too deep or malformed is refused
 * in words, never with a stack trace.
 */
import { LineCounter, parseAllDocuments, isMap, isSeq, isScalar, type Node } from 'yaml';
import { AppConfigFailure } from '../types.js';
import type { Environment } from './environment.js';

export interface ConfigEntry {
  /** the key in kebab case (relaxed binding: `maxAttempts` and `max_attempts` read as `max-attempts`) */
  readonly key: string;
  readonly value: string;
  readonly line: number;
  readonly file: string;
  /** how the value got there when not written plainly (an environment variable, a placeholder) */
  readonly via?: string;
}

/** Spring's relaxed binding, one segment: camelCase and snake_case -> kebab-case, lower case. */
export const kebab = (segment: string): string =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();

/** A key in kebab case; a map key (the segment after `bindings`, a binding's name) is kept as written, as Spring binds map keys. */
export const normalizeKey = (key: string): string =>
  key
    .split('.')
    .map((s, i, all) => (s.startsWith('[') || (i > 0 && all[i - 1] === 'bindings') ? s : kebab(s)))
    .join('.');

export interface ConfigDoc {
  readonly entries: ConfigEntry[];
}

/** YAML documents as flat entries; `lineOffset`: the file's text starts that many lines in (a file embedded in a ConfigMap). */
export function yamlDocs(file: string, text: string, lineOffset = 0): ConfigDoc[] {
  const lc = new LineCounter();
  // uniqueKeys: false keeps the parse linear (the library compares every key with every other); duplicates are checked below
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const lineOf = (pos: number): number => lc.linePos(pos).line + lineOffset;
  const out: ConfigDoc[] = [];
  for (const d of list) {
    const e = d.errors[0];
    if (e) {
      const at = lc.linePos(e.pos[0]);
      const deep = /call stack/i.test(e.message);
      throw new AppConfigFailure({
        file,
        line: at.line + lineOffset,
        column: at.col,
        message: deep
          ? 'YAML nested too deeply to read here (hundreds of levels): an application configuration is a few levels deep'
          : `YAML syntax error: ${e.message.split('\n')[0]}`,
      });
    }
    const entries: ConfigEntry[] = [];
    const seen = new Map<string, number>();
    // an explicit stack: depth costs memory, never the call stack
    const stack: { node: Node | null | undefined; prefix: string; keyPos: number | undefined }[] = [
      { node: d.contents as Node, prefix: '', keyPos: undefined },
    ];
    while (stack.length > 0) {
      const { node, prefix, keyPos } = stack.pop()!;
      if (node === null || node === undefined) continue;
      if (isMap(node)) {
        const kids: typeof stack = [];
        for (const pair of node.items) {
          const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
          const pos = isScalar(pair.key) && pair.key.range ? pair.key.range[0] : keyPos;
          const full = prefix ? `${prefix}.${k}` : k;
          const twice = seen.get(full);
          if (twice !== undefined && pos !== undefined)
            throw new AppConfigFailure({
              file,
              line: lineOf(pos),
              message: `the key ${full} appears twice in one document (first at line ${twice}): Spring Boot refuses to start`,
            });
          if (pos !== undefined) seen.set(full, lineOf(pos));
          kids.push({ node: pair.value as Node, prefix: full, keyPos: pos });
        }
        for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
        continue;
      }
      if (isSeq(node)) {
        for (let i = node.items.length - 1; i >= 0; i--) {
          const it = node.items[i] as Node;
          stack.push({ node: it, prefix: `${prefix}[${i}]`, keyPos: it?.range?.[0] ?? keyPos });
        }
        continue;
      }
      if (isScalar(node)) {
        const pos = keyPos ?? node.range?.[0] ?? 0;
        entries.push({
          key: normalizeKey(prefix),
          value: node.value === null ? '' : String(node.value),
          line: lineOf(pos),
          file,
        });
      }
    }
    out.push({ entries });
  }
  return out;
}

/** java.util.Properties: `key=value`, `key: value` or `key value`; `#`/`!` comments; `\` continues a line. */
export function propertiesDocs(file: string, text: string): ConfigDoc[] {
  const docs: ConfigDoc[] = [{ entries: [] }];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let raw = lines[i]!.replace(/^\s+/, '');
    if (/^[#!]---\s*$/.test(raw)) {
      docs.push({ entries: [] });
      continue;
    }
    if (raw === '' || raw.startsWith('#') || raw.startsWith('!')) continue;
    // a line ending in an odd number of backslashes continues (joined in parts: a long continuation stays linear)
    if (continues(raw)) {
      const parts = [raw.slice(0, -1)];
      while (i + 1 < lines.length) {
        const next = lines[++i]!.replace(/^\s+/, '');
        if (!continues(next)) {
          parts.push(next);
          break;
        }
        parts.push(next.slice(0, -1));
      }
      raw = parts.join('');
    }
    const m = /^((?:\\.|[^=:\s\\])+)\s*[=:\s]\s*(.*)$/s.exec(raw) ?? /^((?:\\.|[^=:\s\\])+)$/.exec(raw);
    if (!m)
      throw new AppConfigFailure({
        file,
        line: start,
        column: 1,
        message: `properties syntax error: cannot read "${raw.slice(0, 60)}"`,
      });
    const key = m[1]!.replace(/\\(.)/g, '$1');
    const value = (m[2] ?? '').replace(/\\(.)/g, '$1').trim();
    docs[docs.length - 1]!.entries.push({ key: normalizeKey(key), value, line: start, file });
  }
  return docs;
}

function continues(line: string): boolean {
  let n = 0;
  for (let k = line.length - 1; k >= 0 && line[k] === '\\'; k--) n++;
  return n % 2 === 1;
}

const PROFILE_KEYS = ['spring.config.activate.on-profile', 'spring.profiles'];

/** The profile expression a document is activated on (`prod`, `prod | eu`, `!dev`), or undefined. */
function profileOf(doc: ConfigDoc): string | undefined {
  for (const e of doc.entries)
    if (PROFILE_KEYS.includes(e.key) || PROFILE_KEYS.some((k) => e.key.startsWith(`${k}.[`))) return e.value;
  return undefined;
}

const profileActive = (expr: string, active: readonly string[]): boolean =>
  expr
    .split(/[|,]/)
    .map((s) => s.trim())
    .some((p) => (p.startsWith('!') ? !active.includes(p.slice(1)) : active.includes(p)));

/** One configuration file's documents, and the profile the file itself is for (`application-prod.yml`). */
export interface ConfigLayer {
  readonly file: string;
  readonly docs: readonly ConfigDoc[];
  readonly profile?: string;
}

export function configLayer(file: string, text: string, lineOffset = 0): ConfigLayer {
  const docs = /\.properties$/i.test(file) ? propertiesDocs(file, text) : yamlDocs(file, text, lineOffset);
  const profile = /(?:^|[\\/])application-([^\\/.]+)\.(?:ya?ml|properties)$/i.exec(file)?.[1];
  return { file, docs, ...(profile !== undefined ? { profile } : {}) };
}

export interface ConfigView {
  /** the value of a key (kebab case) as the application sees it: the highest source winning, placeholders resolved */
  readonly get: (key: string) => ConfigEntry | undefined;
  /** every active entry written in a file (lower sources first) */
  readonly entries: readonly ConfigEntry[];
  /** profile documents and files left out, with their line */
  readonly inactiveProfiles: readonly { readonly profile: string; readonly line: number; readonly file: string }[];
  readonly activeProfiles: readonly string[];
}

/** The profiles in force: as asked (--spring-profile), else SPRING_PROFILES_ACTIVE, else the files' spring.profiles.active. */
function activeProfilesOf(
  layers: readonly ConfigLayer[],
  env: Environment | undefined,
  asked: readonly string[],
): string[] {
  const split = (v: string): string[] =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (asked.length > 0) return [...asked];
  const fromEnv = env?.get('SPRING_PROFILES_ACTIVE');
  if (fromEnv) return split(fromEnv.value);
  let fromFile: string | undefined;
  for (const l of layers)
    if (l.profile === undefined)
      for (const d of l.docs)
        if (profileOf(d) === undefined)
          for (const e of d.entries) if (e.key === 'spring.profiles.active') fromFile = e.value;
  return fromFile !== undefined ? split(fromFile) : [];
}

/** The layers in Spring's order, the active documents' entries (lowest first), and the profile documents left out. */
export function buildConfigView(
  layers: readonly ConfigLayer[],
  env?: Environment,
  askedProfiles: readonly string[] = [],
): ConfigView {
  const active = activeProfilesOf(layers, env, askedProfiles);
  // Spring activates `default` when no profile is
  const effective = active.length > 0 ? active : ['default'];
  const rank = (l: ConfigLayer): number =>
    (l.profile === undefined ? 0 : 10 * (1 + effective.indexOf(l.profile))) + (/\.properties$/i.test(l.file) ? 1 : 0);
  const ordered = layers.filter((l) => l.profile === undefined || effective.includes(l.profile));
  ordered.sort((a, b) => rank(a) - rank(b));
  const entries: ConfigEntry[] = [];
  const inactive: { profile: string; line: number; file: string }[] = [];
  for (const l of layers)
    if (l.profile !== undefined && !effective.includes(l.profile))
      inactive.push({ profile: l.profile, line: 1, file: l.file });
  for (const l of ordered)
    for (const d of l.docs) {
      const p = profileOf(d);
      if (p !== undefined && !profileActive(p, effective)) {
        if (d.entries.length > 0) inactive.push({ profile: p, line: d.entries[0]!.line, file: l.file });
        continue;
      }
      for (const e of d.entries) entries.push(e);
    }
  const last = new Map<string, ConfigEntry>();
  for (const e of entries) last.set(e.key, e);
  const json = env ? applicationJson(env) : new Map<string, ConfigEntry>();
  const raw = (key: string): ConfigEntry | undefined => {
    const j = json.get(key);
    if (j) return j;
    const v = env?.springProperty(key);
    if (v) return { key, value: v.value, line: v.line, file: v.file, via: `env ${v.name}` };
    return last.get(key);
  };
  const resolved = new Map<string, ConfigEntry | undefined>();
  const get = (key: string): ConfigEntry | undefined => {
    if (resolved.has(key)) return resolved.get(key);
    const e = raw(key);
    const r = e && e.value.includes('${') ? resolvePlaceholders(e, raw, env) : e;
    resolved.set(key, r);
    return r;
  };
  return { get, entries, inactiveProfiles: inactive, activeProfiles: active };
}

/** One file, no environment: the view a single file gives (detection, tests). */
export function readConfigText(file: string, text: string, activeProfiles: readonly string[] = []): ConfigView {
  return buildConfigView([configLayer(file, text)], undefined, activeProfiles);
}

/** SPRING_APPLICATION_JSON: properties as JSON in one variable (above every other environment variable). */
function applicationJson(env: Environment): Map<string, ConfigEntry> {
  const out = new Map<string, ConfigEntry>();
  const v = env.get('SPRING_APPLICATION_JSON');
  if (!v) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v.value);
  } catch {
    throw new AppConfigFailure({ file: v.file, line: v.line, message: 'SPRING_APPLICATION_JSON is not JSON' });
  }
  const walk = (x: unknown, prefix: string, depth: number): void => {
    if (depth > 32) return;
    if (x !== null && typeof x === 'object' && !Array.isArray(x)) {
      for (const [k, y] of Object.entries(x)) walk(y, prefix ? `${prefix}.${k}` : k, depth + 1);
      return;
    }
    if (Array.isArray(x)) return x.forEach((y, i) => walk(y, `${prefix}[${i}]`, depth + 1));
    const key = normalizeKey(prefix);
    out.set(key, { key, value: String(x), line: v.line, file: v.file, via: 'env SPRING_APPLICATION_JSON' });
  };
  walk(parsed, '', 0);
  return out;
}

const MAX_PLACEHOLDER_DEPTH = 16;

/** `${name}` and `${name:default}` in a value, resolved against the same sources (nested defaults too). */
function resolvePlaceholders(
  e: ConfigEntry,
  raw: (key: string) => ConfigEntry | undefined,
  env: Environment | undefined,
): ConfigEntry {
  const used: string[] = [];
  const lookup = (name: string, depth: number): string | undefined => {
    const exact = env?.get(name);
    if (exact) {
      used.push(`${name} from ${exact.file}:${exact.line}`);
      return exact.value;
    }
    const p = raw(normalizeKey(name));
    if (!p) return undefined;
    used.push(`${name} from ${p.via ?? `${p.file}:${p.line}`}`);
    return expand(p.value, depth + 1);
  };
  const expand = (value: string, depth: number): string => {
    if (depth > MAX_PLACEHOLDER_DEPTH || !value.includes('${')) return value;
    let out = '';
    let i = 0;
    while (i < value.length) {
      const s = value.indexOf('${', i);
      if (s < 0) break;
      const end = closingBrace(value, s + 2);
      if (end < 0) break;
      out += value.slice(i, s);
      const body = value.slice(s + 2, end);
      const colon = topLevelColon(body);
      const name = colon < 0 ? body : body.slice(0, colon);
      const found = lookup(name.trim(), depth);
      if (found !== undefined) out += found;
      else if (colon >= 0) {
        used.push(`${name.trim()} unset: its default`);
        out += expand(body.slice(colon + 1), depth + 1);
      } else {
        used.push(`${name.trim()} unset and without a default (Spring fails to start)`);
        out += value.slice(s, end + 1);
      }
      i = end + 1;
    }
    return out + value.slice(i);
  };
  const value = expand(e.value, 0);
  return { ...e, value, via: `${e.value}${used.length ? `: ${used.join('; ')}` : ''}` };
}

function closingBrace(v: string, from: number): number {
  let depth = 1;
  for (let i = from; i < v.length; i++) {
    if (v.startsWith('${', i)) {
      depth++;
      i++;
    } else if (v[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function topLevelColon(body: string): number {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    if (body.startsWith('${', i)) {
      depth++;
      i++;
    } else if (body[i] === '}') depth--;
    else if (body[i] === ':' && depth === 0) return i;
  }
  return -1;
}

/** Notes for the profile documents and files a view left out. */
export function inactiveProfileNotes(view: ConfigView): { line: number; file: string; text: string }[] {
  return view.inactiveProfiles.map((p) => ({
    line: p.line,
    file: p.file,
    text: `the ${/application-[^/\\]+$/.test(p.file) && p.line === 1 ? 'file' : 'document'} for profile "${p.profile}" is not active (activate it with --spring-profile)`,
  }));
}
