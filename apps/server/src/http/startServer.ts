/**
 * Starts the web app and the API on host:port: the one way the server is started (`./run.sh
 * start`, `retry-studio serve`, `pnpm --filter @retry-studio/server start`). Resolves when it
 * listens; a port in use or a missing web build is an error that names it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { AppContext } from './appContext.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  /** the built web app's folder; must hold index.html */
  readonly webDist: string;
}

export class ServeError extends Error {}

export async function startServer(
  opts: ServeOptions,
): Promise<{ server: Server; close: () => Promise<void>; url: string }> {
  if (!existsSync(join(opts.webDist, 'index.html'))) {
    throw new ServeError(
      `the web app is not built (no ${join(opts.webDist, 'index.html')}): run "pnpm --filter @retry-studio/web build" first (the installed package has it built in)`,
    );
  }
  const app = createApp({ port: opts.port, webDist: opts.webDist });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(opts.port, opts.host);
    s.once('listening', () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${opts.host}:${opts.port}`;
      if (err.code === 'EADDRINUSE')
        reject(
          new ServeError(
            `port ${opts.port} is in use (${where}): stop what listens there or choose another with --port`,
          ),
        );
      else if (err.code === 'EACCES')
        reject(new ServeError(`not allowed to listen on ${where}: choose a port above 1023 with --port`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        reject(new ServeError(`--host ${opts.host} is not an address of this machine`));
      else reject(new ServeError(`cannot listen on ${where}: ${err.message}`));
    });
  });
  const ctx = app.locals.ctx as AppContext;
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  return {
    server,
    url,
    close: async () => {
      await Promise.all([ctx.brokers.closeAll(), ctx.heavy.close()]);
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
