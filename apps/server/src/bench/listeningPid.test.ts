import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningPid } from './listeningPid.js';

const linux = process.platform === 'linux';

describe.runIf(linux)('listeningPid', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  const listen = (host: string): Promise<number> =>
    new Promise((resolve, reject) => {
      server = createServer()
        .once('error', reject)
        .listen(0, host, () => resolve((server!.address() as { port: number }).port));
    });

  it('finds this process by the port it listens on (IPv4 and IPv6)', async () => {
    expect(listeningPid(await listen('127.0.0.1'))).toBe(String(process.pid));
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    // a machine without IPv6 has no ::1 to listen on: the IPv4 half stands alone there
    const port6 = await listen('::1').catch(() => undefined);
    if (port6 === undefined) server = undefined;
    else expect(listeningPid(port6)).toBe(String(process.pid));
  });

  it('finds nobody on a port nothing listens on', async () => {
    const port = await listen('127.0.0.1');
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    expect(listeningPid(port)).toBeUndefined();
  });
});
