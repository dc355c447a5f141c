/**
 * Waits for a condition instead of sleeping a fixed time and then asserting: polls `cond` until
 * it holds and throws, naming `what`, once `timeoutMs` has passed. The default deadline is
 * generous: the tests run beside a CI on a loaded 2-core machine, where the broker's management
 * statistics (every 5 s), a child process's start and a delivery all take longer than on a quiet one.
 */
export async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  what: string,
  opts: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    if (await cond()) return;
    if (Date.now() >= deadline) throw new Error(`waited ${opts.timeoutMs ?? 30_000} ms for ${what}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 50));
  }
}

/** The redrive job's copies published and not yet confirmed (progress().inFlight counts the ones waiting to be published too). */
export const copiesOnTheWire = (job: object): number => (job as { copies: { inFlight: number } }).copies.inFlight;
