/**
 * The files given to import-app as the application sees them when it runs: the environment
 * (--env dotenv files, a Kubernetes Deployment's env and the ConfigMaps it names, a Helm values
 * file), Spring's configuration files merged into one view (application.yml, its profile files,
 * a ConfigMap's embedded application.yml, the environment over them), and each code file.
 * Every file is refused over MAX_APP_FILE_CHARS, in words.
 */
import { LineCounter, parseAllDocuments } from 'yaml';
import { CodeText, type CodeSyntax } from '../frameworks/read/codeText.js';
import { buildConfigView, configLayer, type ConfigLayer, type ConfigView } from '../frameworks/read/configText.js';
import {
  Environment,
  configMapData,
  kubernetesKind,
  readDotenv,
  readKubernetesEnv,
  type ConfigMapData,
} from '../frameworks/read/environment.js';
import { LineIndex } from '../frameworks/read/lineIndex.js';
import { fileKind, isAppConfigJson } from '../frameworks/registry.js';
import { AppConfigFailure, type AppFile, type AppInput, type FileKind, type ReadOptions } from '../frameworks/types.js';

/** the largest application-configuration file read (real ones are kilobytes; a Helm values file, a few hundred) */
export const MAX_APP_FILE_CHARS = 2 * 1024 * 1024;

export interface AppInputs {
  /** one per code file, and one for Spring's configuration when there is any */
  readonly inputs: readonly AppInput[];
  readonly env: Environment;
  /** Spring's merged configuration (for @Value and ${...} in Java), when configuration files were given */
  readonly springConfig?: ConfigView;
  /** the files read as the environment only */
  readonly envFiles: readonly string[];
}

function checkSize(f: AppFile): void {
  if (f.text.length > MAX_APP_FILE_CHARS)
    throw new AppConfigFailure({
      file: f.name,
      message: `it is ${(f.text.length / (1024 * 1024)).toFixed(1)} MB; import-app reads application configuration files of up to ${MAX_APP_FILE_CHARS / (1024 * 1024)} MB (real ones are a few kilobytes): give the application's own configuration, not a generated or concatenated file`,
    });
}

const isDotenv = (name: string): boolean => /(^|[\\/])\.env([.-][\w-]+)?$/i.test(name) || /\.env$/i.test(name);

interface YamlFile {
  readonly file: AppFile;
  readonly docs: ReturnType<typeof parseAllDocuments>;
  readonly lines: LineIndex;
}

/** a Kubernetes object or a Helm values file may set the environment: only those are parsed for it (the rest once, as configuration) */
const MAY_SET_ENV = /^\s*(?:apiVersion|kind):|^\s*(?:env|extraEnv|extraEnvVars|envVars|environment|envFrom):/m;

function parseYaml(f: AppFile): YamlFile | undefined {
  if (!/\.ya?ml$/i.test(f.name) || !MAY_SET_ENV.test(f.text)) return undefined;
  const docs = parseAllDocuments(f.text, { lineCounter: new LineCounter(), uniqueKeys: false });
  return { file: f, docs: Array.isArray(docs) ? docs : [docs], lines: new LineIndex(f.text) };
}

/** Kubernetes and Helm files read as the environment; a ConfigMap's embedded application.yml as a configuration layer. */
function readEnvironment(
  files: readonly AppFile[],
  opts: ImportInputOptions,
): { env: Environment; envFiles: Set<string>; layers: ConfigLayer[] } {
  const env = new Environment();
  const envFiles = new Set<string>();
  const layers: ConfigLayer[] = [];
  for (const f of opts.envFiles ?? []) {
    checkSize(f);
    readDotenv(f, env);
  }
  const yamls = files.map(parseYaml).filter((y): y is YamlFile => y !== undefined);
  const configMaps = new Map<string, ConfigMapData>();
  for (const y of yamls)
    for (const d of y.docs)
      if (d.errors.length === 0 && kubernetesKind(d) === 'configmap') {
        const data = configMapData(d, y.lines);
        if (!data) continue;
        configMaps.set(data.name, data);
        envFiles.add(y.file.name);
        for (const e of data.entries)
          if (/^application(-[\w-]+)?\.(ya?ml|properties)$/i.test(e.key))
            // the embedded file's text starts on the line after `key: |`
            layers.push(configLayer(`${y.file.name}#${e.key}`, e.value, e.line));
      }
  for (const y of yamls)
    for (const d of y.docs) {
      const k = d.errors.length === 0 ? kubernetesKind(d) : undefined;
      if (k === 'workload' || k === 'helm-values') {
        envFiles.add(y.file.name);
        readKubernetesEnv(y.file.name, d, y.lines, env, configMaps);
      }
    }
  for (const f of files)
    if (isDotenv(f.name)) {
      envFiles.add(f.name);
      readDotenv(f, env);
    }
  return { env, envFiles, layers };
}

export interface ImportInputOptions extends ReadOptions {
  /** dotenv files (--env) */
  readonly envFiles?: readonly AppFile[];
}

const SYNTAX: Partial<Record<FileKind, CodeSyntax>> = {
  java: 'c',
  csharp: 'c',
  javascript: 'c',
  json: 'c',
  python: 'python',
};

export function appInputs(files: readonly AppFile[], opts: ImportInputOptions): AppInputs {
  for (const f of files) checkSize(f);
  const { env, envFiles, layers } = readEnvironment(files, opts);
  for (const f of files)
    if (fileKind(f.name) === undefined)
      throw new AppConfigFailure({
        file: f.name,
        message:
          'unknown kind of file: expected application.yml/.yaml/.properties, Java (.java, .kt), C# (.cs), Python (.py), JavaScript/TypeScript (.js, .ts), a Rascal JSON, a .env, a Kubernetes or Helm YAML, or a definitions JSON with --definitions',
      });
  const configFiles = files.filter((f) => fileKind(f.name) === 'config' && !envFiles.has(f.name) && !isDotenv(f.name));
  for (const f of configFiles) layers.push(configLayer(f.name, f.text));
  const springConfig = layers.length > 0 ? buildConfigView(layers, env, opts.springProfiles ?? []) : undefined;
  const inputs: AppInput[] = [];
  const base = configFiles.find((f) => !/application-[^\\/]+$/i.test(f.name)) ?? configFiles[0];
  if (springConfig)
    inputs.push({
      file: base ?? { name: layers[0]!.file, text: '' },
      kind: 'config',
      config: () => springConfig,
      code: () => new CodeText(base?.name ?? layers[0]!.file, '', 'c'),
      env,
      opts,
    });
  for (const f of files) {
    const kind = fileKind(f.name)!;
    if (kind === 'config') continue;
    if (kind === 'json' && !isAppConfigJson(f.text))
      throw new AppConfigFailure({
        file: f.name,
        message:
          'a JSON file is a design or definitions export, not application configuration: give it with --definitions',
      });
    let code: CodeText | undefined;
    inputs.push({
      file: f,
      kind,
      config: () => {
        throw new AppConfigFailure({ file: f.name, message: 'not a configuration file' });
      },
      code: () => (code ??= new CodeText(f.name, f.text, SYNTAX[kind] ?? 'c')),
      env,
      ...(springConfig ? { springProperties: springConfig } : {}),
      opts,
    });
  }
  // each code file sees the others of its kind (a module configured in one file, its handlers in another)
  const withCompanions = inputs.map((i) =>
    i.kind === 'config' ? i : { ...i, companions: inputs.filter((o) => o !== i && o.kind === i.kind) },
  );
  return { inputs: withCompanions, env, ...(springConfig ? { springConfig } : {}), envFiles: [...envFiles] };
}
