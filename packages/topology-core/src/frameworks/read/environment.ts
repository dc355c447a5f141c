/**
 * The environment an application runs with, as import-app is given it: `--env FILE` in dotenv
 * form, the `env` of a Kubernetes Deployment (StatefulSet, Job, Pod, CronJob), the `data` of a
 * ConfigMap it names, or a Helm values file's `env`/`extraEnv` lists and maps. Each variable keeps
 * the file and line that set it, so a value read through it says where it came from.
 */
import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import { LineIndex } from './lineIndex.js';
import type { AppFile } from '../types.js';
import { AppConfigFailure } from '../types.js';

export interface EnvVar {
  readonly name: string;
  readonly value: string;
  readonly file: string;
  readonly line: number;
}

export class Environment {
  private readonly vars = new Map<string, EnvVar>();
  /** upper-case name -> variable (Spring matches names without regard to case) */
  private canonical?: Map<string, EnvVar>;

  /** later sources win, as a later `--env` or a container's own `env` over `envFrom` */
  set(v: EnvVar): void {
    this.vars.set(v.name, v);
    this.canonical = undefined;
  }

  get(name: string): EnvVar | undefined {
    return this.vars.get(name);
  }

  get size(): number {
    return this.vars.size;
  }

  all(): EnvVar[] {
    return [...this.vars.values()];
  }

  /**
   * The variable that sets a Spring property by relaxed binding: upper case, `.` as `_`, dashes
   * dropped or written as `_` (SPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_MAXATTEMPTS and
   * ..._MAX_ATTEMPTS both set `retry.max-attempts`: Spring Boot's SystemEnvironmentPropertyMapper
   * tries both; docs: features.external-config.typesafe-configuration-properties.relaxed-binding.environment-variables).
   */
  springProperty(key: string): EnvVar | undefined {
    if (!this.canonical) {
      this.canonical = new Map();
      for (const v of this.vars.values()) this.canonical.set(v.name.toUpperCase(), v);
    }
    for (const name of springEnvNames(key)) {
      const v = this.canonical.get(name);
      if (v) return v;
    }
    return undefined;
  }
}

/** The environment variable names that set a Spring key (`a.b-c[0]` -> A_BC_0, A_B_C_0). */
export function springEnvNames(key: string): string[] {
  const segments = key
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '');
  const noDash = segments
    .map((s) => s.replace(/-/g, ''))
    .join('_')
    .toUpperCase();
  const legacy = segments.join('_').replace(/-/g, '_').toUpperCase();
  return noDash === legacy ? [noDash] : [noDash, legacy];
}

/** dotenv: `KEY=value`, `export KEY=value`, quotes stripped, `#` comments. */
export function readDotenv(f: AppFile, into: Environment): void {
  const lines = f.text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m)
      throw new AppConfigFailure({ file: f.name, line: i + 1, message: `not NAME=value: "${line.slice(0, 60)}"` });
    let v = m[2]!;
    const q = /^(["'])(.*)\1$/.exec(v);
    if (q) v = q[1] === '"' ? q[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1') : q[2]!;
    else v = v.replace(/\s+#.*$/, '');
    into.set({ name: m[1]!, value: v, file: f.name, line: i + 1 });
  });
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod', 'ReplicaSet']);

/** A ConfigMap's data: its variables, and embedded files (`application.yml: |`) with the line their text starts at. */
export interface ConfigMapData {
  readonly name: string;
  readonly entries: { readonly key: string; readonly value: string; readonly line: number }[];
}

interface YamlDoc {
  readonly contents: Node | null;
}

const get = (m: YAMLMap, key: string): Node | undefined => {
  for (const p of m.items)
    if (isScalar(p.key) && p.key.value === key) return (p.value ?? undefined) as Node | undefined;
  return undefined;
};

const str = (n: Node | undefined): string | undefined =>
  n && isScalar(n) && n.value !== null && typeof n.value !== 'object' ? String(n.value) : undefined;

/** What a Kubernetes or Helm YAML document holds for the environment; undefined: it is not one. */
export function kubernetesKind(doc: YamlDoc): 'workload' | 'configmap' | 'helm-values' | undefined {
  const c = doc.contents;
  if (!c || !isMap(c)) return undefined;
  const kind = str(get(c, 'kind'));
  if (kind !== undefined && get(c, 'apiVersion') !== undefined) {
    if (WORKLOADS.has(kind)) return 'workload';
    if (kind === 'ConfigMap') return 'configmap';
    return undefined;
  }
  return hasEnvBlock(c, 0) ? 'helm-values' : undefined;
}

const ENV_KEYS = new Set(['env', 'extraEnv', 'extraEnvVars', 'envVars', 'environment']);

function hasEnvBlock(n: Node, depth: number): boolean {
  if (depth > 6 || !isMap(n)) return false;
  for (const p of n.items) {
    if (isScalar(p.key) && ENV_KEYS.has(String(p.key.value)) && isEnvList(p.value as Node)) return true;
    if (p.value && hasEnvBlock(p.value as Node, depth + 1)) return true;
  }
  return false;
}

/** `[{name, value}]`, or a map of NAME: scalar */
function isEnvList(n: Node | null | undefined): boolean {
  if (!n) return false;
  if (isSeq(n)) return n.items.length > 0 && n.items.every((i) => isMap(i) && get(i as YAMLMap, 'name') !== undefined);
  if (isMap(n))
    return (
      n.items.length > 0 &&
      n.items.every((p) => isScalar(p.key) && /^[A-Z_][A-Z0-9_]*$/.test(String(p.key.value)) && isScalar(p.value))
    );
  return false;
}

/** Reads the environment from a Kubernetes or Helm document into `env`; ConfigMaps are read first, so `valueFrom` and `envFrom` find them. */
export function readKubernetesEnv(
  file: string,
  doc: YamlDoc,
  lines: LineIndex,
  env: Environment,
  configMaps: ReadonlyMap<string, ConfigMapData>,
): void {
  const c = doc.contents;
  if (!c || !isMap(c)) return;
  const at = (n: Node | undefined): number => lines.line(n?.range?.[0] ?? 0);
  const fromList = (n: Node): void => {
    if (isSeq(n))
      for (const item of n.items) {
        if (!isMap(item)) continue;
        const name = str(get(item, 'name'));
        if (name === undefined) continue;
        const value = get(item, 'value');
        if (value !== undefined) {
          env.set({ name, value: str(value) ?? '', file, line: at(value) });
          continue;
        }
        const ref = get(item, 'valueFrom');
        const cm = ref && isMap(ref) ? get(ref, 'configMapKeyRef') : undefined;
        if (cm && isMap(cm)) {
          const data = configMaps.get(str(get(cm, 'name')) ?? '');
          const e = data?.entries.find((x) => x.key === str(get(cm, 'key')));
          if (e) env.set({ name, value: e.value, file, line: at(item) });
        }
      }
    else if (isMap(n))
      for (const p of n.items)
        if (isScalar(p.key))
          env.set({ name: String(p.key.value), value: str(p.value as Node) ?? '', file, line: at(p.value as Node) });
  };
  const fromEnvFrom = (n: Node): void => {
    if (!isSeq(n)) return;
    for (const item of n.items) {
      const ref = isMap(item) ? get(item, 'configMapRef') : undefined;
      const data = ref && isMap(ref) ? configMaps.get(str(get(ref, 'name')) ?? '') : undefined;
      const prefix = isMap(item) ? (str(get(item, 'prefix')) ?? '') : '';
      for (const e of data?.entries ?? [])
        if (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(e.key))
          env.set({ name: prefix + e.key, value: e.value, file, line: at(item as Node) });
    }
  };
  const walk = (n: Node, depth: number): void => {
    if (depth > 12 || !isMap(n)) {
      if (isSeq(n) && depth <= 12) for (const i of n.items) walk(i as Node, depth + 1);
      return;
    }
    for (const p of n.items) {
      const k = isScalar(p.key) ? String(p.key.value) : '';
      const v = p.value as Node | null;
      if (!v) continue;
      if (k === 'envFrom') fromEnvFrom(v);
      else if (ENV_KEYS.has(k) && isEnvList(v)) fromList(v);
      else walk(v, depth + 1);
    }
  };
  walk(c, 0);
}

/** A ConfigMap document's name and data entries. */
export function configMapData(doc: YamlDoc, lines: LineIndex): ConfigMapData | undefined {
  const c = doc.contents;
  if (!c || !isMap(c)) return undefined;
  const meta = get(c, 'metadata');
  const name = meta && isMap(meta) ? str(get(meta, 'name')) : undefined;
  const data = get(c, 'data');
  if (name === undefined || !data || !isMap(data)) return undefined;
  return {
    name,
    entries: data.items.flatMap((p) =>
      isScalar(p.key) && isScalar(p.value)
        ? [{ key: String(p.key.value), value: String(p.value.value ?? ''), line: lines.line(p.value.range?.[0] ?? 0) }]
        : [],
    ),
  };
}
