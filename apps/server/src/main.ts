import { createApp } from './http/app.js';

const port = Number(process.env.PORT ?? 8080);
// loopback only unless told otherwise: this server can change a broker
const host = process.env.HOST ?? '127.0.0.1';
const app = createApp({ port });
const server = app.listen(port, host, () => {
  console.log(`Retry Studio on http://${host === '::1' ? '[::1]' : host}:${port}`);
});
server.on('error', (err) => {
  console.error(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
  process.exit(1);
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void (app.locals.ctx as { brokers: { closeAll(): Promise<void> } }).brokers.closeAll().finally(() => process.exit(0));
  });
}
