/**
 * Real network endpoints for the bad-input tests: a TCP forward to a real broker's AMQP port (a
 * broker whose management API cannot be found next to it) and an HTTP server that is not RabbitMQ.
 */
import { afterAll, beforeAll } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface Endpoint {
  readonly port: number;
  close(): Promise<void>;
}

function listen(server: Server, sockets: Set<Socket>): Promise<Endpoint> {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      }),
    ),
  );
}

/** 127.0.0.1:<random port> forwards to 127.0.0.1:targetPort, byte for byte. */
export function forwardTcp(targetPort: number): Promise<Endpoint> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return listen(server, sockets);
}

/** An HTTP server that answers every request with an HTML page (status `status`). */
export function htmlServer(status = 200): Promise<Endpoint> {
  const sockets = new Set<Socket>();
  const server = createHttpServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end('<html><body>not RabbitMQ</body></html>');
  });
  return listen(server, sockets);
}

/**
 * For a describe block: a TCP forward to `targetPort` and an HTML server, up for its tests
 * (read the ports inside the tests).
 */
export function useForeignEndpoints(targetPort: number): { readonly forward: Endpoint; readonly html: Endpoint } {
  let forward: Endpoint | undefined;
  let html: Endpoint | undefined;
  beforeAll(async () => {
    forward = await forwardTcp(targetPort);
    html = await htmlServer();
  });
  afterAll(async () => {
    await forward?.close();
    await html?.close();
  });
  const up = (e: Endpoint | undefined): Endpoint => {
    if (!e) throw new Error('the endpoints start in beforeAll');
    return e;
  };
  return {
    get forward() {
      return up(forward);
    },
    get html() {
      return up(html);
    },
  };
}
