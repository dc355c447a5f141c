/**
 * pnpm bench:canvas — in headless Debian Chromium, against the built app and the real server:
 *  1. frames per second of the canvas with a ~300-node design and 1,000 tokens animating
 *     (the hidden stress route `/?stress=43&messages=1000`: 43 retry loops × 7 nodes = 301 nodes);
 *  2. ms from choosing a template in the gallery to a drawn canvas (every template, median and max).
 * Targets: at least 50 fps, under 300 ms.
 */
import { launchChromium } from './lib/chromium.js';
import { buildWeb, startServer } from './lib/server.js';

const skipBuild = process.argv.includes('--no-build');
if (!skipBuild) buildWeb();
const server = await startServer();
const browser = await launchChromium();
let ok = true;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // 0. the machine's own frame rate with an idle page (the ceiling under the current load)
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=app]');
  const idleFps = (await page.evaluate(`new Promise((resolve) => {
    let frames = 0; const t0 = performance.now();
    const f = (now) => { frames++; if (now - t0 < 2000) requestAnimationFrame(f); else resolve(frames / ((now - t0) / 1000)); };
    requestAnimationFrame(f);
  })`)) as number;

  // 1. fps with 1,000 tokens on a 300-node canvas
  await page.goto(`${server.url}/?stress=43&messages=1000&speed=1`);
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length >= 300, null, { timeout: 30_000 });
  const nodes = await page.locator('.react-flow__node').count();
  await page.waitForFunction(() => ((window as unknown as { __overlay?: { drawnTokens: number } }).__overlay?.drawnTokens ?? 0) >= 1000, null, { timeout: 30_000 });
  await page.waitForTimeout(500);
  // page scripts are strings: tsx's keepNames would inject a helper the page does not have.
  // Three 3-second windows; the median is reported (this VM's load moves single windows a lot).
  const windows: Array<{ fps: number; minTokens: number; maxTokens: number; worstFrameMs: number; drawMs: number }> = [];
  for (let w = 0; w < 3; w++) {
    windows.push(
      (await page.evaluate(`new Promise((resolve) => {
        const ov = window.__overlay;
        let frames = 0, minTokens = Infinity, maxTokens = 0, worst = 0;
        const d0 = ov.drawMs, f0 = ov.frames;
        const t0 = performance.now();
        let last = t0;
        const f = (now) => {
          frames++;
          worst = Math.max(worst, now - last);
          last = now;
          minTokens = Math.min(minTokens, ov.drawnTokens);
          maxTokens = Math.max(maxTokens, ov.drawnTokens);
          if (now - t0 < 3000) requestAnimationFrame(f);
          else resolve({ fps: frames / ((now - t0) / 1000), minTokens, maxTokens, worstFrameMs: worst, drawMs: (ov.drawMs - d0) / Math.max(1, ov.frames - f0) });
        };
        requestAnimationFrame(f);
      })`)) as { fps: number; minTokens: number; maxTokens: number; worstFrameMs: number; drawMs: number },
    );
  }
  const m = [...windows].sort((x, y) => x.fps - y.fps)[1]!;
  console.log(`idle page fps (this machine, now): ${idleFps.toFixed(1)}`);
  console.log(`canvas nodes: ${nodes}`);
  console.log(`tokens animating: ${m.minTokens}..${m.maxTokens}`);
  console.log(`canvas fps windows: ${windows.map((x) => x.fps.toFixed(1)).join(', ')}`);
  console.log(`canvas fps: ${m.fps.toFixed(1)} (median window; target >= 50; worst frame ${m.worstFrameMs.toFixed(1)} ms, overlay draw ${m.drawMs.toFixed(2)} ms/frame)`);
  if (m.fps < 50) ok = false;

  // 2. template chosen -> canvas drawn
  await page.goto(server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=template-card]');
  const ids = await page.locator('[data-testid=template-card]').evaluateAll((els) => els.map((e) => e.getAttribute('data-template')!));
  const times: number[] = [];
  for (const id of ids) {
    await page.waitForSelector('[data-testid=template-card]');
    const ms = (await page.evaluate(`new Promise((resolve) => {
      const btn = document.querySelector('[data-template="${id}"] [data-testid=template-use]');
      const t0 = performance.now();
      btn.click();
      const check = () => {
        const n = document.querySelectorAll('.react-flow__node').length;
        const e = document.querySelectorAll('.react-flow__edge').length;
        // drawn = nodes and edges are in the DOM and a frame has been painted with them
        if (n > 0 && e > 0) requestAnimationFrame(() => resolve(performance.now() - t0));
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })`)) as number;
    times.push(ms);
    await page.click('[data-testid=open-gallery]');
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const max = times[times.length - 1]!;
  console.log(`template to drawn canvas: median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms over ${times.length} templates (target < 300 ms)`);
  if (max >= 300) ok = false;
  if (errors.length) {
    console.log(`page errors: ${errors.join('; ')}`);
    ok = false;
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(ok ? 'bench:canvas: targets met' : 'bench:canvas: a target was missed');
process.exit(ok ? 0 : 1);
