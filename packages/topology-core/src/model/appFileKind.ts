/**
 * Which files are an application's configuration (import-app's input) rather than a design or a
 * definitions export: by name, and for JSON by its text. Here, at the bottom, so that a command
 * reading a definitions file decides it without loading the framework readers.
 */
export type AppFileKind = 'config' | 'java' | 'csharp' | 'python' | 'javascript' | 'json';

/** The kind of file by its extension; undefined: not one the readers know. */
export function appFileKind(name: string): AppFileKind | undefined {
  if (/\.(ya?ml|properties|env)$/i.test(name) || /(^|[\\/])\.env(\.[\w-]+)?$/i.test(name)) return 'config';
  if (/\.(java|kt)$/i.test(name)) return 'java';
  if (/\.cs$/i.test(name)) return 'csharp';
  if (/\.py$/i.test(name)) return 'python';
  if (/\.(js|mjs|cjs|ts|mts|cts)$/i.test(name)) return 'javascript';
  if (/\.json$/i.test(name)) return 'json';
  return undefined;
}

/** A JSON file that is an application's configuration (Rascal's `vhosts` map), not a design or definitions export. */
export const isAppConfigJson = (text: string): boolean =>
  /"vhosts"\s*:\s*\{/.test(text.slice(0, 200_000)) &&
  !/"(rabbit_version|rabbitmq_version|format)"\s*:/.test(text.slice(0, 2000));

/**
 * A YAML file that holds RabbitMQ objects rather than an application's configuration: messaging-topology-
 * operator or cluster-operator resources (`apiVersion: rabbitmq.com/...`), or a definitions JSON embedded in
 * a ConfigMap, a Secret or a Helm values file (io/kubernetesManifests.ts reads them). By its text alone.
 */
export const holdsRabbitObjects = (text: string): boolean => {
  const head = text.slice(0, 200_000);
  return (
    /^\s*apiVersion:\s*["']?rabbitmq\.com\//m.test(head) ||
    /"(queues|exchanges|bindings|policies|rabbit_version|rabbitmq_version)"\s*:/.test(head)
  );
};

/** An application-configuration file that import-app reads (by its name, and for JSON by its text). */
export function isAppConfigFile(name: string, text?: string): boolean {
  const k = appFileKind(name);
  if (k === undefined) return false;
  if (k === 'json') return text !== undefined && isAppConfigJson(text);
  // a Kubernetes manifest or Helm values file holding RabbitMQ objects is read as definitions
  if (k === 'config' && /\.ya?ml$/i.test(name) && text !== undefined && holdsRabbitObjects(text)) return false;
  return true;
}
