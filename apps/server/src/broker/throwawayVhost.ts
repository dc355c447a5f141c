/**
 * One lifecycle for every throwaway vhost this tool makes (upgrade-check --verify-on and its
 * --trace, rehearse --verify-on, prove-app, calibration):
 * - its name is said before it is created (`announceThrowawayVhosts`: the CLI prints it on stderr);
 * - it carries a marker the broker keeps on 3.10 and 4.x: the tag THROWAWAY_TAG and a description
 *   saying what made it, when, and which process on which host;
 * - it is deleted when the work ends, whatever happened, and also when the process is interrupted
 *   (SIGINT, SIGTERM, SIGHUP) or dies of an uncaught error while it lives (exit 128 + the signal's
 *   number, or 1);
 * - a SIGKILL leaves it behind: `retry-studio cleanup --url AMQP_URL` finds it by its marker (or
 *   the tool's own prefixes) and deletes it (listThrowawayVhosts).
 * RETRY_STUDIO_THROWAWAY_PREFIX, when set, goes before every name (a team's or a test's own
 * namespace on a shared broker).
 */
import { randomBytes } from 'node:crypto';
import { constants, hostname } from 'node:os';
import type { ManagementClient } from './management.js';

/** the tag on every throwaway vhost */
export const THROWAWAY_TAG = 'retry-studio-throwaway';
/** the prefixes this tool named its throwaway vhosts with before they carried the marker */
export const THROWAWAY_PREFIXES: readonly string[] = ['rs-upgrade-', 'rs-rehearse-'];
/** how long deleting the live vhosts may take when the process is stopping */
const STOPPING_DELETE_MS = 10_000;

let announceTo: (line: string) => void = (line) => void process.stderr.write(line);

/** where the names are said before their vhosts are created (default: stderr) */
export function announceThrowawayVhosts(to: (line: string) => void): void {
  announceTo = to;
}

/** said where the CLI writes its notes; a reader that went away (EPIPE) does not stop the cleanup */
function announce(line: string): void {
  try {
    announceTo(line);
  } catch {
    /* nobody reads it */
  }
}

/** the throwaway vhosts this process has made and not yet deleted, each with its create (a delete waits for it) */
const live = new Map<string, { readonly management: ManagementClient; created: Promise<unknown> }>();
let stopping = false;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function deleteLive(): Promise<void> {
  // a create still under way would bring the vhost back after the delete: wait for it first
  const all = [...live].map(([vhost, { management, created }]) =>
    created
      .then(
        () => management.deleteVhost(vhost),
        () => management.deleteVhost(vhost),
      )
      .then(
        () => {
          live.delete(vhost);
          announce(`deleted throwaway vhost ${vhost}\n`);
        },
        (e: unknown) =>
          announce(
            `could not delete throwaway vhost ${vhost} (${(e as Error).message}): run retry-studio cleanup --url AMQP_URL\n`,
          ),
      ),
  );
  const bound = new Promise<void>((r) => setTimeout(r, STOPPING_DELETE_MS).unref());
  return Promise.race([Promise.all(all).then(() => undefined), bound]);
}

/** stop: delete what lives, then exit unless someone else handles this signal (the server's own stop) */
function onSignal(signal: NodeJS.Signals): void {
  if (stopping) process.exit(128 + (constants.signals[signal] ?? 0)); // a second Ctrl-C: at once
  stopping = true;
  const othersHandle = process.listenerCount(signal) > 1;
  announce(`${signal}: deleting throwaway vhost(s) ${[...live.keys()].join(', ')}\n`);
  void deleteLive().finally(() => {
    if (!othersHandle) process.exit(128 + (constants.signals[signal] ?? 0));
    stopping = false;
  });
}

/**
 * Exits with `code` once the live throwaway vhosts are deleted (at once when there are none): the
 * CLI's exit when its reader went away (`... | head` mid-verify left the vhost behind).
 */
export function exitAfterCleanup(code: number): void {
  if (live.size === 0) process.exit(code);
  if (stopping) return;
  stopping = true;
  void deleteLive().finally(() => process.exit(code));
}

function onFatal(e: unknown): void {
  if (stopping) return;
  stopping = true;
  announce(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  void deleteLive().finally(() => process.exit(1));
}

function watch(): void {
  if (live.size !== 1) return; // the first one: start watching
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
}

function unwatch(): void {
  if (live.size > 0) return;
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('uncaughtException', onFatal);
  process.off('unhandledRejection', onFatal);
}

/** what the broker keeps on the vhost: the tag, and who made it for what */
export function throwawayMarker(label: string): { description: string; tags: readonly string[] } {
  return {
    description: `retry-studio throwaway vhost (${label}), created ${new Date().toISOString()} by pid ${process.pid} on ${hostname()}; deleted when its run ends, else by retry-studio cleanup`,
    tags: [THROWAWAY_TAG],
  };
}

/**
 * Runs `fn` in a new vhost `<prefix>-<label>-<random>` (prefix `rs-upgrade`), then deletes it (a
 * failed delete is reported, not thrown; an error of `fn` is thrown after the delete).
 */
export async function inThrowawayVhost<T>(
  management: ManagementClient,
  label: string,
  fn: (vhost: string) => Promise<T>,
  prefix = 'rs-upgrade',
): Promise<{ vhost: string; result: T; cleanedUp: boolean }> {
  const vhost = `${process.env.RETRY_STUDIO_THROWAWAY_PREFIX ?? ''}${prefix}-${label}-${randomBytes(4).toString('hex')}`;
  let result: T;
  let cleanedUp = false;
  announce(`throwaway vhost ${vhost}: creating it (deleted when this run ends)\n`);
  // watched before it exists: a signal during the create deletes it too, once the create is over
  const entry = { management, created: Promise.resolve() as Promise<unknown> };
  live.set(vhost, entry);
  watch();
  try {
    entry.created = management.createVhost(vhost, throwawayMarker(label));
    await entry.created;
    result = await fn(vhost);
  } finally {
    cleanedUp = await management.deleteVhost(vhost).then(
      () => true,
      () => false,
    );
    live.delete(vhost);
    unwatch();
  }
  return { vhost, result, cleanedUp };
}

export interface ThrowawayVhost {
  readonly name: string;
  readonly description?: string;
  /** carries THROWAWAY_TAG (else: one of the tool's prefixes only) */
  readonly marked: boolean;
  /** the process that made it still runs on this host: its run is not over */
  readonly inUse: boolean;
}

/** is `pid` a running process (on this host)? */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** the throwaway vhosts on this broker (`prefixes` narrows them to names that start so) */
export async function listThrowawayVhosts(
  management: ManagementClient,
  prefixes?: readonly string[],
): Promise<ThrowawayVhost[]> {
  const here = hostname();
  const out: ThrowawayVhost[] = [];
  for (const v of await management.listVhosts()) {
    const tags = Array.isArray(v.tags) ? v.tags : String(v.tags ?? '').split(',');
    const marked = tags.includes(THROWAWAY_TAG);
    if (!marked && !THROWAWAY_PREFIXES.some((p) => v.name.startsWith(p))) continue;
    if (prefixes && !prefixes.some((p) => v.name.startsWith(p))) continue;
    const by = /by pid (\d+) on (\S+);/.exec(v.description ?? '');
    const inUse = by !== null && by[2] === here && running(Number(by[1]));
    out.push({ name: v.name, ...(v.description ? { description: v.description } : {}), marked, inUse });
  }
  return out;
}
