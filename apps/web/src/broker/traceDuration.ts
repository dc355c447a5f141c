/**
 * The trace's upper bound on its run time (it ends by itself once everything settled): the
 * server's default minute, or longer for many messages (10,000 through a chain of tiers take
 * well over a minute on a busy machine).
 */
export function traceDurationMs(messages: number): number {
  return Math.min(30 * 60_000, Math.max(60_000, messages * 30));
}
