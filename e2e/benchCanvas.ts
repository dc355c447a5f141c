/**
 * pnpm bench:canvas — in headless Debian Chromium, against the built app and the real server:
 *  1. the canvas with 1,000 tokens animating, at two sizes side by side: the hidden stress route
 *     `/?stress=COPIES&messages=1000` with 143 retry loops × 7 nodes (1,001 nodes) and 715 (5,005 nodes).
 *     For each: ms from navigation to the fitted design drawn (every node drawn, as a DOM node or on the
 *     canvas layer: the canvas's `data-drawn`), and frames per second with the tokens playing;
 *  2. ms from choosing a template in the gallery to a drawn canvas (every template, median and max).
 * Targets: at least 50 fps and drawn in under 3 s at both sizes; a template under 300 ms.
 * `--sizes 143,715` picks the stress sizes (copies of the 7-node loop).
 */
import type { Page } from 'playwright-core';
import { launchChromium } from './lib/chromium.js';
import { buildWeb, startServer } from './lib/server.js';

const skipBuild = process.argv.includes('--no-build');
const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? process.argv[sizesArg + 1]!.split(',').map(Number) : [143, 715];
const FPS_TARGET = 50;
const DRAW_TARGET_MS = 3000;

interface Window3 {
  fps: number;
  minTokens: number;
  maxTokens: number;
  worstFrameMs: number;
  drawMs: number;
}

async function measureStress(page: Page, url: string, copies: number): Promise<{ nodes: number; drawnMs: number; windows: Window3[]; median: Window3 }> {
  const expected = copies * 7;
  await page.goto(`${url}/?stress=${copies}&messages=1000&speed=1`);
  // drawn: every node is drawn (a DOM node each, or the canvas layer says so) and a frame painted with them
  const drawnMs = (await page.evaluate(`new Promise((resolve) => {
    const check = () => {
      const c = document.querySelector('[data-testid=canvas]');
      const drawn = Number(c?.getAttribute('data-drawn') ?? 0);
      const dom = document.querySelectorAll('.react-flow__node').length;
      if (drawn >= ${expected} || dom >= ${expected}) requestAnimationFrame(() => resolve(performance.now()));
      else requestAnimationFrame(check);
    };
    check();
  })`)) as number;
  await page.waitForFunction(() => ((window as unknown as { __overlay?: { drawnTokens: number } }).__overlay?.drawnTokens ?? 0) >= 1000, null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  // page scripts are strings: tsx's keepNames would inject a helper the page does not have.
  // Three 3-second windows; the median is reported (this VM's load moves single windows a lot).
  const windows: Window3[] = [];
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
      })`)) as Window3,
    );
  }
  return { nodes: expected, drawnMs, windows, median: [...windows].sort((x, y) => x.fps - y.fps)[1]! };
}

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
  console.log(`idle page fps (this machine, now): ${idleFps.toFixed(1)}`);

  // 1. the stress sizes, side by side
  const rows: Array<{ nodes: number; drawnMs: number; median: Window3; windows: Window3[] }> = [];
  for (const copies of SIZES) rows.push(await measureStress(page, server.url, copies));
  console.log('nodes   drawn(ms)  fps(median)  fps windows          tokens      worst frame  overlay ms/frame');
  for (const r of rows) {
    const m = r.median;
    console.log(
      `${String(r.nodes).padEnd(7)} ${r.drawnMs.toFixed(0).padStart(9)}  ${m.fps.toFixed(1).padStart(11)}  ${r.windows.map((x) => x.fps.toFixed(1)).join(', ').padEnd(19)}  ${`${m.minTokens}..${m.maxTokens}`.padEnd(10)}  ${m.worstFrameMs.toFixed(1).padStart(8)} ms  ${m.drawMs.toFixed(2)}`,
    );
    if (m.fps < FPS_TARGET || r.drawnMs >= DRAW_TARGET_MS) ok = false;
  }
  console.log(`targets: >= ${FPS_TARGET} fps with 1,000 tokens, drawn < ${DRAW_TARGET_MS} ms`);

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
