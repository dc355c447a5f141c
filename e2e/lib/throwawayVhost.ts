/**
 * The name of a flow's throwaway vhost on the shared test brokers (made through the management
 * API, deleted when the flow ends): `rs-e2e-<what>-<time>`, or under E2E_VHOST_PREFIX, so whoever
 * runs the flows on a shared broker can tell (and clean up) their own vhosts.
 */
export function throwawayVhost(what: string): string {
  return `${process.env.E2E_VHOST_PREFIX ?? 'rs-e2e-'}${what}-${Date.now().toString(36)}`;
}
