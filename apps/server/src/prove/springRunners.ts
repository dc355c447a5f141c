/**
 * The Spring runners: one JVM per flavour (Spring Boot 3.5, Spring Boot 4.0, Spring Cloud Stream on
 * Boot 3.5) runs every job of a prove-app process, each a fresh SpringApplication context with the
 * user's configuration files (Spring Boot, Spring Cloud Stream) or the container factory built from
 * import-app's reading (Spring AMQP Java configuration). The project is runners/spring (pom.xml),
 * built once into runners/spring/target/<flavour> (Maven, offline after the first resolve).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { consumerNodeId, sourceSetting, type ConsumerSpec, type NodeSource } from '@retry-studio/topology-core/model';
import type { FrameworkRunner, JobContext, RunningJob } from './frameworkRunner.js';
import { RunnerProcess, type RunnerEvent } from './runnerProcess.js';
import { hasCommand, INSTALL_HINT, NOT_IN_PACKAGE } from './runtimeCheck.js';
import { randomBytes } from 'node:crypto';
import { startedAgainIfStale } from './startedAgain.js';

export const SPRING_DIR = fileURLToPath(new URL('./runners/spring/', import.meta.url));
type Flavour = 'boot35' | 'boot40' | 'stream';
const FLAVOUR_LABEL: Record<Flavour, string> = {
  boot35: 'Spring Boot 3.5',
  boot40: 'Spring Boot 4.0',
  stream: 'Spring Cloud Stream (Rabbit binder, Spring Boot 3.5)',
};

const classpathFile = (f: Flavour) => path.join(SPRING_DIR, 'target', f, 'classpath.txt');

/** Builds a flavour if it is not built yet (the first run resolves from Maven Central, later ones offline). */
export function buildSpringFlavour(f: Flavour): void {
  if (existsSync(classpathFile(f)) && newestSource(SPRING_DIR) <= statSync(classpathFile(f)).mtimeMs) return;
  const offline = spawnSync('mvn', ['-B', '-q', '-o', '-P', f, 'compile'], { cwd: SPRING_DIR, encoding: 'utf8' });
  if (offline.status === 0) return;
  const online = spawnSync('mvn', ['-B', '-q', '-P', f, 'compile'], { cwd: SPRING_DIR, encoding: 'utf8' });
  if (online.status !== 0)
    throw new Error(`building the ${FLAVOUR_LABEL[f]} runner failed:\n${(online.stdout + online.stderr).slice(-3000)}`);
}

/** the newest modification time of the pom and the sources (a build older than it is rebuilt) */
function newestSource(dir: string): number {
  let newest = statSync(path.join(dir, 'pom.xml')).mtimeMs;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(path.join(d, e.name));
      else newest = Math.max(newest, statSync(path.join(d, e.name)).mtimeMs);
  };
  walk(path.join(dir, 'src'));
  return newest;
}

const jvms = new Map<Flavour, RunnerProcess>();
/** JVMs replaced after a start failed in them (startedAgain.ts): their running jobs go on; they end with the run */
const retired = new Set<RunnerProcess>();
/** how many jobs each JVM was asked to start */
const jobsStarted = new WeakMap<RunnerProcess, number>();

function jvm(f: Flavour): RunnerProcess {
  let p = jvms.get(f);
  if (p?.alive) return p;
  buildSpringFlavour(f);
  const cp = [path.join(SPRING_DIR, 'target', f, 'classes'), readFileSync(classpathFile(f), 'utf8').trim()].join(
    path.delimiter,
  );
  p = new RunnerProcess(
    'java',
    [
      '-Xmx768m',
      '-Xss512k',
      '-XX:TieredStopAtLevel=1',
      `-Dprove.flavour=${f}`,
      '-cp',
      cp,
      'dev.retrystudio.prove.Main',
    ],
    {
      cwd: SPRING_DIR,
    },
  );
  jvms.set(f, p);
  return p;
}

/** Ends the JVMs (a CLI run's end, a test file's afterAll). */
export async function closeSpringRunners(): Promise<void> {
  await Promise.all([...jvms.values(), ...retired].map((p) => p.quit()));
  jvms.clear();
  retired.clear();
}

/** Java Properties text: keys and values escaped */
const props = (entries: readonly (readonly [string, string])[]): string =>
  entries.map(([k, v]) => `${k}=${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/^ /, '\\ ')}`).join('\n') +
  '\n';

function connectionArgs(ctx: JobContext): string[] {
  const u = ctx.amqp;
  return [
    `--spring.rabbitmq.addresses=${u.hostname}:${u.port}`,
    `--spring.rabbitmq.username=${u.username}`,
    `--spring.rabbitmq.password=${u.password}`,
    `--spring.rabbitmq.virtual-host=${u.vhost}`,
    `--spring.rabbitmq.ssl.enabled=${u.protocol === 'amqps'}`,
    ...(ctx.springProfiles.length ? [`--spring.profiles.active=${ctx.springProfiles.join(',')}`] : []),
  ];
}

const configArgs = (ctx: JobContext): string[] => [
  `--spring.config.location=${ctx.files.map((f) => `file:${f.path}`).join(',')}`,
];

/** Spring Cloud Stream: the functions the bindings name (`<fn>-in-<n>`, or a bare name mapped onto a function `<name>Function`) */
export function streamFunctionArgs(bindings: readonly string[]): string[] {
  const fns: string[] = [];
  const args: string[] = [];
  for (const b of bindings) {
    const m = /^(.+)-in-\d+$/.exec(b);
    // a bare binding (`input`) is also the name of the binder's channel bean: the function gets its own
    const fn = m ? m[1]! : `${b}Function`;
    if (!m) args.push(`--spring.cloud.stream.function.bindings.${fn}-in-0=${b}`);
    if (!fns.includes(fn)) fns.push(fn);
  }
  return [`--prove.functions=${fns.join(';')}`, `--spring.cloud.function.definition=${fns.join(';')}`, ...args];
}

/**
 * Spring AMQP Java configuration: the container factory's calls as import-app read them. The
 * numbers are the consumer's retry as read (constants and expressions resolved), the recoverer the
 * one the file names (its exchange and key resolved); what the file leaves out stays Spring's default.
 */
export function javaConfigArgs(consumer: ConsumerSpec | undefined, src: NodeSource | undefined): string[] {
  const setting = (k: string) => sourceSetting(src, k);
  const written = (k: string) => setting(k)?.line !== undefined;
  const out: string[] = [];
  const builder = setting('RetryInterceptorBuilder')?.value;
  const retry =
    consumer?.behaviour.kind === 'worker'
      ? consumer.behaviour.onFailure.map((r) => r.then).find((a) => a.kind === 'retryInProcess')
      : undefined;
  out.push(`--prove.javaconfig.retry=${builder === 'stateful' || builder === 'stateless' ? builder : 'none'}`);
  if (retry?.kind === 'retryInProcess') {
    if (written('maxAttempts')) out.push(`--prove.javaconfig.maxAttempts=${retry.maxAttempts}`);
    const b = retry.backoff;
    if (written('backOffOptions')) out.push(`--prove.javaconfig.backOff=${b.initialMs},${b.multiplier},${b.maxMs}`);
    const rec = retry.recover;
    if (!written('recoverer')) out.push('--prove.javaconfig.recoverer=none');
    else if (rec.kind === 'republish') {
      out.push('--prove.javaconfig.recoverer=republish', `--prove.javaconfig.republishExchange=${rec.exchange}`);
      if (rec.routingKey !== undefined) out.push(`--prove.javaconfig.republishRoutingKey=${rec.routingKey}`);
    } else if (rec.kind === 'requeue') out.push('--prove.javaconfig.recoverer=requeue');
    else if (rec.kind === 'reject') out.push('--prove.javaconfig.recoverer=reject');
    // a recoverer the reader could not read: Spring's default (its prediction is "unknown")
    else out.push('--prove.javaconfig.recoverer=none');
  }
  const requeue = setting('setDefaultRequeueRejected')?.value;
  if (requeue === 'true' || requeue === 'false') out.push(`--prove.javaconfig.defaultRequeueRejected=${requeue}`);
  const ack = setting('setAcknowledgeMode')?.value;
  if (ack) out.push(`--prove.javaconfig.acknowledgeMode=${ack}`);
  if (written('setPrefetchCount'))
    out.push(`--prove.javaconfig.prefetch=${consumer?.prefetch ?? setting('setPrefetchCount')!.value}`);
  return out;
}

function modeArgs(flavour: Flavour, framework: string, ctx: JobContext): string[] {
  const d = ctx.design;
  if (framework === 'spring-cloud-stream')
    return [...configArgs(ctx), '--prove.mode=stream', ...streamFunctionArgs(d?.consumers.map((c) => c.id) ?? [])];
  if (framework === 'spring-amqp') {
    const src = d?.sources?.[consumerNodeId(ctx.channel.consumer)];
    const consumer = d?.consumers.find((c) => c.id === ctx.channel.consumer);
    return ['--prove.mode=javaconfig', `--prove.queues=${ctx.channel.queue}`, ...javaConfigArgs(consumer, src)];
  }
  void flavour;
  return [...configArgs(ctx), '--prove.mode=boot', `--prove.queues=${ctx.channel.queue}`];
}

function startSpringJob(flavour: Flavour, framework: string, ctx: JobContext): Promise<RunningJob> {
  let used: { jvm: RunnerProcess; before: number } | undefined;
  return startedAgainIfStale({
    start: () => {
      const p = jvm(flavour);
      used = { jvm: p, before: jobsStarted.get(p) ?? 0 };
      jobsStarted.set(p, used.before + 1);
      return startInJvm(p, flavour, framework, ctx);
    },
    usedBefore: () => (used?.before ?? 0) > 0,
    retire: () => {
      if (!used || jvms.get(flavour) !== used.jvm) return;
      retired.add(used.jvm);
      jvms.delete(flavour);
    },
    note: (why) => process.stderr.write(`${FLAVOUR_LABEL[flavour]}: ${why}\n`),
  });
}

async function startInJvm(p: RunnerProcess, flavour: Flavour, framework: string, ctx: JobContext): Promise<RunningJob> {
  await p.ready;
  const job = randomBytes(4).toString('hex');
  const args = [...modeArgs(flavour, framework, ctx), ...connectionArgs(ctx)];
  const spec = path.join(ctx.workDir, `spring-${job}.properties`);
  writeFileSync(
    spec,
    props([
      ['failFirst', String(ctx.failure.kind === 'always' ? -1 : ctx.failure.n)],
      ...args.map((a, i) => [`arg.${i}`, a] as const),
    ]),
  );
  let listener: (e: RunnerEvent) => void = () => undefined;
  const off = p.on(job, (e) => listener(e));
  p.send(`start ${job} ${spec}`);
  return {
    version: String(
      (framework === 'spring-cloud-stream'
        ? p.info.streamVersion
        : framework === 'spring-amqp'
          ? p.info.amqpVersion
          : p.info.bootVersion) ?? 'unknown',
    ),
    on: (fn) => (listener = fn),
    logTail: () => p.logTail(),
    stop: () =>
      new Promise<void>((resolve) => {
        if (!p.alive) return resolve();
        const timer = setTimeout(resolve, 15_000);
        listener = (e) => {
          if (e.event === 'stopped' || e.event === 'exited') {
            clearTimeout(timer);
            off();
            resolve();
          }
        };
        p.send(`stop ${job}`);
      }),
  };
}

function springAbsent(flavour: Flavour): string | undefined {
  if (!existsSync(path.join(SPRING_DIR, 'pom.xml'))) return NOT_IN_PACKAGE;
  if (!hasCommand('java', '-version'))
    return `${FLAVOUR_LABEL[flavour]} needs Java 17+ (java is not on PATH): ${INSTALL_HINT}`;
  if (!existsSync(classpathFile(flavour)) && !hasCommand('mvn'))
    return `${FLAVOUR_LABEL[flavour]}'s runner is not built and Maven (mvn) is not on PATH: ${INSTALL_HINT}`;
  return undefined;
}

const springRunner = (
  framework: string,
  flavour: Flavour,
  variant: string | undefined,
  declaresTopology: boolean,
): FrameworkRunner => ({
  framework,
  ...(variant ? { variant } : {}),
  label: framework === 'spring-amqp' ? 'Spring AMQP Java configuration (Spring Boot 3.5)' : FLAVOUR_LABEL[flavour],
  declaresTopology,
  absent: () => springAbsent(flavour),
  isPlumbing: (q) => q.startsWith('amq.gen-'),
  start: (ctx) => startSpringJob(flavour, framework, ctx),
});

export const SPRING_RUNNERS: readonly FrameworkRunner[] = [
  springRunner('spring-boot', 'boot35', '3.5', false),
  springRunner('spring-boot', 'boot40', '4.0', false),
  springRunner('spring-amqp', 'boot35', undefined, false),
  springRunner('spring-cloud-stream', 'stream', undefined, true),
];
