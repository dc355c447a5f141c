/**
 * Where a broker's management API is looked for when a request gives no `managementUrl` (and
 * RETRY_STUDIO_MANAGEMENT_URL is unset): port 15672 on the AMQP host, then the AMQP port + 10000
 * (two brokers on one host: 5672/15672 and 5673/15673). The server tries them in this order and
 * takes the first that is the same broker; the web shows them beside an empty field.
 */
export interface AmqpEndpoint {
  /** without brackets, as the server's URL parser gives it (`::1`) */
  readonly hostname: string;
  readonly port: number;
  /** the "port" may be a password with the host forgotten (`amqp://user:98765432/vhost`): not tried, since a candidate is named in errors */
  readonly portMayBeSecret?: boolean;
}

export function managementCandidates(endpoint: AmqpEndpoint): string[] {
  const host = endpoint.hostname.includes(':') ? `[${endpoint.hostname}]` : endpoint.hostname;
  const ports = [15672, ...(endpoint.portMayBeSecret ? [] : [endpoint.port + 10000])].filter((p) => p <= 65535);
  return [...new Set(ports)].map((p) => `http://${host}:${p}`);
}
