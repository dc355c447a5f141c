// dev helper: screenshot a URL path at 1280x800
import { launchChromium } from './lib/chromium.js';
import { startServer } from './lib/server.js';
const [path = '/', out = 'artifacts/dev.png', ...actions] = process.argv.slice(2);
const srv = await startServer();
const b = await launchChromium();
const page = await b.newPage({ viewport: { width: 1280, height: 800 } });
page.on('console', (m) => {
  if (m.type() === 'error' || m.type() === 'warning') console.log('console.' + m.type(), m.text());
});
page.on('pageerror', (e) => console.log('pageerror', e.message));
await page.goto(srv.url + path);
await page.waitForTimeout(800);
for (const a of actions) {
  if (a.startsWith('click:')) await page.click(a.slice(6));
  else if (a.startsWith('wait:')) await page.waitForTimeout(Number(a.slice(5)));
  else if (a.startsWith('eval:')) console.log(await page.evaluate(a.slice(5)));
}
await page.screenshot({ path: out });
await b.close();
await srv.stop();
