import express from 'express';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const webDist = join(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

export interface AppOptions {
  readonly port: number;
}

export function createApp(_options: AppOptions) {
  const app = express();
  app.get('/api/health', (_req, res) => {
    res.json({ ok: true });
  });
  if (existsSync(webDist)) {
    app.use(express.static(webDist));
    app.get(/^\/(?!api\/).*/, (_req, res) => res.sendFile(join(webDist, 'index.html')));
  }
  return app;
}
