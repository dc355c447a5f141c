/**
 * A TCP proxy in front of a broker's AMQP port that can go silent: after `silence()` it forwards
 * nothing either way and keeps every socket open, as a broker whose AMQP stops answering (while
 * its management API still does) looks to a client.
 */
import net from 'node:net';

export interface SilentProxy {
  readonly port: number;
  silence(): void;
  close(): Promise<void>;
}

export async function startSilentProxy(targetPort: number): Promise<SilentProxy> {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (d) => void (silent || upstream.write(d)));
    upstream.on('data', (d) => void (silent || client.write(d)));
    // silent, the broker's side closing (its own heartbeat check) is not passed on either
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => void (silent || client.destroy()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    silence: () => void (silent = true),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
