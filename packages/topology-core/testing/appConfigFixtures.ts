/**
 * Fixture builders for an application's retry configuration read with its queues (import-app):
 * a Spring Boot `application.yml` and the RabbitMQ definitions of one work queue dead-lettering
 * through a fanout DLX into its DLQ. Shared by the core's tests, the server's live trace of an
 * imported app and the browser's Open / Import flow (`@retry-studio/topology-core/testing/appconfig`).
 */

export interface SpringBootRetry {
  /** spring.application.name, when the file names the app (two lines before `rabbitmq:`) */
  readonly appName?: string;
  readonly enabled: boolean;
  readonly maxAttempts: number;
  /** `200ms`, `1s` ... as the file spells them */
  readonly initialInterval?: string;
  readonly multiplier?: number;
  readonly maxInterval?: string;
  /** listener.simple.default-requeue-rejected */
  readonly defaultRequeueRejected?: boolean;
}

/** A Spring Boot application.yml setting the simple listener's retry; the lines in this order (tests name them). */
export function springBootYml(r: SpringBootRetry): string {
  return [
    'spring:',
    ...(r.appName ? ['  application:', `    name: ${r.appName}`] : []),
    '  rabbitmq:',
    '    listener:',
    '      simple:',
    '        retry:',
    `          enabled: ${r.enabled}`,
    `          max-attempts: ${r.maxAttempts}`,
    ...(r.initialInterval ? [`          initial-interval: ${r.initialInterval}`] : []),
    ...(r.multiplier !== undefined ? [`          multiplier: ${r.multiplier}`] : []),
    ...(r.maxInterval ? [`          max-interval: ${r.maxInterval}`] : []),
    ...(r.defaultRequeueRejected !== undefined
      ? [`        default-requeue-rejected: ${r.defaultRequeueRejected}`]
      : []),
    '',
  ].join('\n');
}

/** Definitions (JSON text) of `queue` dead-lettering through the fanout `dlx` into `dlq` (default `<queue>.dlx`, `<queue>.dlq`). */
export function dlqDefinitions(queue: string, opts: { readonly dlx?: string; readonly dlq?: string } = {}): string {
  const dlx = opts.dlx ?? `${queue}.dlx`;
  const dlq = opts.dlq ?? `${queue}.dlq`;
  const q = (name: string, args: Record<string, unknown>) => ({
    name,
    vhost: '/',
    durable: true,
    auto_delete: false,
    arguments: args,
  });
  return JSON.stringify({
    queues: [q(queue, { 'x-dead-letter-exchange': dlx }), q(dlq, {})],
    exchanges: [
      { name: dlx, vhost: '/', type: 'fanout', durable: true, auto_delete: false, internal: false, arguments: {} },
    ],
    bindings: [
      { source: dlx, vhost: '/', destination: dlq, destination_type: 'queue', routing_key: '', arguments: {} },
    ],
  });
}

/** A Spring Boot properties file of `n` unrelated keys around one listener setting (issue 42's 49 MB file, scaled). */
export function manyKeysProperties(n: number): { name: string; text: string } {
  const lines = ['spring.rabbitmq.listener.simple.retry.enabled=true'];
  for (let i = 0; i < n; i++) lines.push(`app.generated.k${i}=v${i}`);
  return { name: 'application.properties', text: lines.join('\n') + '\n' };
}

/** A Spring Boot YAML of `n` unrelated top-level maps around one listener setting (issue 42's 52 MB file, scaled). */
export function manyKeysYaml(n: number): { name: string; text: string } {
  const lines = [
    'spring:',
    '  rabbitmq:',
    '    listener:',
    '      simple:',
    '        retry:',
    '          enabled: true',
  ];
  for (let i = 0; i < n; i++) lines.push(`k${i}:`, `  a${i % 7}: v${i}`);
  return { name: 'application.yml', text: lines.join('\n') + '\n' };
}

/** Java with `n` unbalanced `.maxAttempts(` calls (issue 42's 650 KB file, scaled) after a readable advice. */
export function hostileJava(n: number): { name: string; text: string } {
  return {
    name: 'Hostile.java',
    text:
      'class H {\n  Object a = RetryInterceptorBuilder.stateless().maxAttempts(3).build();\n  @RabbitListener(queues = "q") void on(String s) {}\n' +
      '  // '.concat('x'.repeat(10)) +
      '\n' +
      '  void junk() { x'.concat('.maxAttempts('.repeat(n)) +
      '\n}\n',
  };
}
