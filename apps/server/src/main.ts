import { createApp } from './http/app.js';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const app = createApp({ port });
app.listen(port, host, () => {
  console.log(`Retry Studio on http://${host}:${port}`);
});
