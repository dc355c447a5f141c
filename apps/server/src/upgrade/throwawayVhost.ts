/**
 * upgrade-check's --verify-on works in throwaway vhosts: created fresh, deleted afterwards
 * whatever happened, and the report says whether the delete worked.
 */
import { randomBytes } from 'node:crypto';
import type { ManagementClient } from '../broker/index.js';

/** the vhosts alive now, each with its delete: a SIGINT or SIGTERM deletes them all before the process exits */
const live = new Map<string, () => Promise<void>>();

function onSignal(signal: NodeJS.Signals): void {
  const deletes = [...live.values()].map((d) => d().catch(() => undefined));
  live.clear();
  void Promise.all(deletes).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}

function track(vhost: string, del: () => Promise<void>): void {
  if (live.size === 0) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  live.set(vhost, del);
}

function untrack(vhost: string): void {
  if (!live.delete(vhost) || live.size > 0) return;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

/** Runs `fn` in a new vhost `<prefix>-<label>-<random>` (prefix `rs-upgrade`), then deletes it, also on SIGINT or SIGTERM before the process exits (a failed delete is reported, not thrown; an error of `fn` is thrown after the delete). */
export async function inThrowawayVhost<T>(
  management: ManagementClient,
  label: string,
  fn: (vhost: string) => Promise<T>,
  prefix = 'rs-upgrade',
): Promise<{ vhost: string; result: T; cleanedUp: boolean }> {
  const vhost = `${prefix}-${label}-${randomBytes(4).toString('hex')}`;
  let result: T;
  let cleanedUp = false;
  try {
    track(vhost, () => management.deleteVhost(vhost));
    await management.createVhost(vhost);
    result = await fn(vhost);
  } finally {
    untrack(vhost);
    cleanedUp = await management.deleteVhost(vhost).then(
      () => true,
      () => false,
    );
  }
  return { vhost, result, cleanedUp };
}
