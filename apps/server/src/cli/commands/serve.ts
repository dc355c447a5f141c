/** `serve [--host H] [--port P]`: the web app and the API, until Ctrl-C. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { intValue, parseArgs, value } from './args.js';
import { CliError, type CliIo } from './context.js';

export const SERVE_USAGE =
  'serve [--host H] [--port P]   the web app and the API (default 127.0.0.1:8080, or HOST and PORT)';

/** Where the built web app is: RETRY_STUDIO_WEB_DIST (the package's bin sets it), else the workspace's apps/web/dist. */
export function findWebDist(): string {
  const candidates = [
    process.env.RETRY_STUDIO_WEB_DIST,
    fileURLToPath(new URL('../../../../web/dist', import.meta.url)),
  ].filter((c): c is string => !!c);
  return candidates.find((c) => existsSync(`${c}/index.html`)) ?? candidates.at(-1)!;
}

export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['host', 'port'], switches: [] });
  if (a.positionals.length > 0) throw new CliError(`usage: ${SERVE_USAGE}`, 2);
  const envPort = process.env.PORT;
  if (value(a, 'port') === undefined && envPort !== undefined && !/^[0-9]+$/.test(envPort))
    throw new CliError(`PORT must be a port number, got ${JSON.stringify(envPort)}`, 2);
  const port = intValue(a, 'port', 0, 65535) ?? Number(envPort ?? 8080);
  // loopback only unless told otherwise: this server can change a broker
  const host = value(a, 'host') ?? process.env.HOST ?? '127.0.0.1';
  const { startServer, ServeError } = await import('../../http/startServer.js');
  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer({ host, port, webDist: findWebDist() });
  } catch (e) {
    if (e instanceof ServeError) throw new CliError(e.message);
    throw e;
  }
  io.out(`Retry Studio on ${running.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void running.close().finally(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
