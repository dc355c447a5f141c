/**
 * upgrade-check's --verify-on works in throwaway vhosts: created fresh, deleted afterwards
 * whatever happened, and the report says whether the delete worked.
 */
import { randomBytes } from 'node:crypto';
import type { ManagementClient } from '../broker/index.js';

/** Runs `fn` in a new vhost `<prefix>-<label>-<random>` (prefix `rs-upgrade`), then deletes it (a failed delete is reported, not thrown; an error of `fn` is thrown after the delete). */
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
    await management.createVhost(vhost);
    result = await fn(vhost);
  } finally {
    cleanedUp = await management.deleteVhost(vhost).then(
      () => true,
      () => false,
    );
  }
  return { vhost, result, cleanedUp };
}
