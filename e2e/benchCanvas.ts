/**
 * pnpm bench:canvas — in headless Debian Chromium, against the built app and the real server:
 *  1. the canvas with 1,000 tokens animating, at two sizes side by side: the hidden stress route
 *     `/?stress=COPIES&messages=1000` with 143 retry loops × 7 nodes (1,001 nodes) and 715 (5,005 nodes).
 *     For each: ms from navigation to the fitted design drawn and the page answering ("drawn": the first frame
 *     painted with every node drawn, as a DOM node or on the overview canvas, the canvas's `data-drawn`, that is
 *     followed by another frame within 50 ms: no long task holds the page after it; "painted": that first frame
 *     alone), and frames per second with the tokens playing (the stress route presses play a second after drawn);
 *  2. a 10,000-queue vhost definitions file imported in the browser: ms from the file chosen to drawn (as above),
 *     fps while the view is dragged, 'Find a node' (ms from Enter to the node drawn and selected) and the lint tab
 *     grouped (cards, ms to show);
 *  3. issue 41's 5,000-queue definitions file (1,000 retry groups of main/wait/retry/dlq/parking with
 *     dead-letter wiring; 10,005 nodes once its actors are scaffolded) chosen in Open / Import: ms to drawn,
 *     then a reload: ms from navigation to drawn (the design read back from IndexedDB), and the longest task
 *     the page ran for each (a PerformanceObserver for `longtask`);
 *  4. ms from choosing a template in the gallery to a drawn canvas (every template, median and max).
 * Targets: at least 50 fps and drawn in under 3 s at both stress sizes; the 5,000-queue file drawn in under
 * 3 s, reloaded in under 2 s, no task over 200 ms; a template under 300 ms.
 * `--no-import` skips 2 and 3.
 * `--sizes 143,715` picks the stress sizes (copies of the 7-node loop).
 */
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './lib/chromium.js';
import { buildWeb, startServer } from './lib/server.js';
import { clearKept } from './lib/storage.js';
import { retryGroupsDefinitions, teamServicesDefinitions } from './lib/bigDefinitions.js';
import { longest, LONG_TASK_RECORDER, longestTaskSince, tracedTasks } from './lib/traceTasks.js';

const skipBuild = process.argv.includes('--no-build');
const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? process.argv[sizesArg + 1]!.split(',').map(Number) : [143, 715];
const skipImport = process.argv.includes('--no-import');
const FPS_TARGET = 50;
const DRAW_TARGET_MS = 3000;

interface Window3 {
  fps: number;
  minTokens: number;
  maxTokens: number;
  worstFrameMs: number;
  drawMs: number;
}

/**
 * In the page: resolves when `done()` holds, with [painted, drawn]: the first frame painted once it holds, and
 * the first frame after that which follows its previous one within 50 ms (the page answers input again).
 */
const drawnScript = (done: string) => `new Promise((resolve) => {
  let painted = 0, last = 0;
  const check = (now) => {
    if (!painted) {
      if (${done}) requestAnimationFrame((t) => { painted = t; last = t; requestAnimationFrame(check); });
      else requestAnimationFrame(check);
      return;
    }
    if (now - last < 50) return resolve([painted, now]);
    last = now;
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

const allDrawn = (expected: number) =>
  `Number(document.querySelector('[data-testid=canvas]')?.getAttribute('data-drawn') ?? 0) >= ${expected} || document.querySelectorAll('.react-flow__node').length >= ${expected}`;

async function measureStress(
  page: Page,
  url: string,
  copies: number,
): Promise<{ nodes: number; paintedMs: number; drawnMs: number; windows: Window3[]; median: Window3 }> {
  const expected = copies * 7;
  await page.goto(`${url}/?stress=${copies}&messages=1000&speed=1`);
  const [paintedMs, drawnMs] = (await page.evaluate(drawnScript(allDrawn(expected)))) as [number, number];
  await page.waitForFunction(
    () => ((window as unknown as { __overlay?: { drawnTokens: number } }).__overlay?.drawnTokens ?? 0) >= 1000,
    null,
    { timeout: 60_000 },
  );
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
  return { nodes: expected, paintedMs, drawnMs, windows, median: [...windows].sort((x, y) => x.fps - y.fps)[1]! };
}

async function measureImport(page: Page, url: string, queues: number) {
  await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
  await page.waitForSelector('[data-testid=node-queue]');
  await page.click('[data-testid=tab-export]');
  const text = teamServicesDefinitions(queues);
  const nodes = queues + 8;
  const t0 = (await page.evaluate('performance.now()')) as number;
  await page.setInputFiles('[data-testid=import-file]', {
    name: 'big-definitions.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  const [painted, drawn] = (await page.evaluate(drawnScript(allDrawn(nodes)))) as [number, number];
  // drag the view for 3 s (the mouse, as a user pans) while counting frames
  const c = (await page.locator('[data-testid=canvas]').boundingBox())!;
  const fps = page.evaluate(`new Promise((resolve) => {
    let frames = 0, worst = 0; const t0 = performance.now(); let last = t0;
    const f = (now) => { frames++; worst = Math.max(worst, now - last); last = now; if (now - t0 < 3000) requestAnimationFrame(f); else resolve([frames / ((now - t0) / 1000), worst]); };
    requestAnimationFrame(f);
  })`) as Promise<[number, number]>;
  await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
  await page.mouse.down();
  const end = Date.now() + 3000;
  for (let i = 0; Date.now() < end; i++)
    await page.mouse.move(c.x + c.width / 2 + 150 * Math.sin(i / 10), c.y + c.height / 2 + 100 * Math.cos(i / 10));
  await page.mouse.up();
  const [dragFps, worstFrameMs] = await fps;
  // find a node: '/' opens the box, Enter selects it and zooms to it
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await page.waitForSelector('[data-testid=node-search-input]');
  await page.fill('[data-testid=node-search-input]', 'shipping.service-4421.documents.dlq');
  await page.waitForSelector('[data-testid=node-search-hit]');
  const f0 = (await page.evaluate('performance.now()')) as number;
  await page.keyboard.press('Enter');
  const found = (await page.evaluate(`new Promise((resolve) => {
    const check = () => {
      const n = document.querySelector('.react-flow__node[data-id="queue:shipping.service-4421.documents.dlq"]');
      if (n && n.classList.contains('selected')) requestAnimationFrame((t) => resolve(t));
      else requestAnimationFrame(check);
    };
    check();
  })`)) as number;
  // lint grouped: one card per rule
  const l0 = (await page.evaluate('performance.now()')) as number;
  await page.click('[data-testid=tab-lint]');
  await page.waitForSelector('[data-testid=lint-finding]', { timeout: 60_000 });
  const l1 = (await page.evaluate('performance.now()')) as number;
  const lintCards = await page.locator('[data-testid=lint-finding]').count();
  return {
    nodes,
    paintedMs: painted - t0,
    drawnMs: drawn - t0,
    dragFps,
    worstFrameMs,
    findMs: found - f0,
    lintCards,
    lintMs: l1 - l0,
  };
}

const BIG_DRAW_TARGET_MS = 3000;
const BIG_RELOAD_TARGET_MS = 2000;
const LONG_TASK_TARGET_MS = 200;

/**
 * issue 41's file: chosen in Open / Import (drawn, longest task), then the page reloaded (drawn, longest task).
 * The longest task by the page's long-task observer (wall time), and from a performance trace of the same run
 * its longest by wall time and by the main thread's own CPU time (on a loaded shared machine a task's wall time
 * is mostly the renderer waiting for a core).
 */
async function measureRetryGroups(browser: Browser, page: Page, url: string) {
  const groups = 1000;
  const nodes = groups * 10 + 5;
  await page.addInitScript(LONG_TASK_RECORDER);
  await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
  await page.waitForSelector('[data-testid=node-queue]');
  await page.click('[data-testid=open-toggle]');
  const text = retryGroupsDefinitions(groups);
  let t0 = 0;
  let drawn = 0;
  // the file given to the input first: Playwright hands the page its 2 MB over the DevTools protocol (a task of its
  // own a user's file dialog does not cost), then chosen
  const importTasks = await tracedTasks(browser, page, async () => {
    t0 = (await page.evaluate('performance.now()')) as number;
    await page.setInputFiles('[data-testid=open-menu] [data-testid=import-file]', {
      name: 'retry-groups.json',
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });
    [, drawn] = (await page.evaluate(drawnScript(allDrawn(nodes)))) as [number, number];
    // the lint, the stated fate and the save run after the first frame: their tasks count too
    await page.waitForTimeout(4000);
  });
  const importLongest = await longestTaskSince(page, t0);
  let reloaded = 0;
  const reloadTasks = await tracedTasks(browser, page, async () => {
    await page.reload();
    [, reloaded] = (await page.evaluate(drawnScript(allDrawn(nodes)))) as [number, number];
    await page.waitForTimeout(4000);
  });
  const reloadLongest = await longestTaskSince(page, 0);
  return {
    nodes,
    drawnMs: drawn - t0,
    reloadMs: reloaded,
    importLongest,
    reloadLongest,
    importTraced: longest(importTasks),
    reloadTraced: longest(reloadTasks),
  };
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
  const rows: Array<{ nodes: number; paintedMs: number; drawnMs: number; median: Window3; windows: Window3[] }> = [];
  for (const copies of SIZES) rows.push(await measureStress(page, server.url, copies));
  console.log(
    'nodes   drawn(ms)  painted(ms)  fps(median)  fps windows          tokens      worst frame  overlay ms/frame',
  );
  for (const r of rows) {
    const m = r.median;
    console.log(
      `${String(r.nodes).padEnd(7)} ${r.drawnMs.toFixed(0).padStart(9)}  ${r.paintedMs.toFixed(0).padStart(11)}  ${m.fps.toFixed(1).padStart(11)}  ${r.windows
        .map((x) => x.fps.toFixed(1))
        .join(', ')
        .padEnd(
          19,
        )}  ${`${m.minTokens}..${m.maxTokens}`.padEnd(10)}  ${m.worstFrameMs.toFixed(1).padStart(8)} ms  ${m.drawMs.toFixed(2)}`,
    );
    if (m.fps < FPS_TARGET || r.drawnMs >= DRAW_TARGET_MS) ok = false;
  }
  console.log(`targets: >= ${FPS_TARGET} fps with 1,000 tokens, drawn < ${DRAW_TARGET_MS} ms`);

  // 2. a 10,000-queue vhost import: opens, drags, finds a node, lints grouped
  if (!skipImport) {
    const r = await measureImport(page, server.url, 10_000);
    console.log(
      `import ${r.nodes} nodes (10,000 queues): drawn ${r.drawnMs.toFixed(0)} ms (painted ${r.paintedMs.toFixed(0)}), drag ${r.dragFps.toFixed(1)} fps (worst frame ${r.worstFrameMs.toFixed(0)} ms), find a node ${r.findMs.toFixed(0)} ms, lint ${r.lintCards} cards in ${r.lintMs.toFixed(0)} ms`,
    );
    if (r.lintCards >= 30) ok = false;
  }

  // 3. issue 41's 5,000-queue file: drawn, reloaded, the longest tasks (a page of its own: its init script records
  // them), at both of the issue's screen sizes
  if (!skipImport)
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1440, height: 900 },
    ]) {
      const big = await browser.newPage({ viewport });
      big.on('pageerror', (e) => errors.push(e.message));
      const r = await measureRetryGroups(browser, big, server.url);
      await big.close();
      console.log(
        `issue 41's file at ${viewport.width}x${viewport.height} (1,000 retry groups, 5,000 queues, ${r.nodes} nodes): drawn ${r.drawnMs.toFixed(0)} ms, longest task ${r.importLongest.toFixed(0)} ms; reload drawn ${r.reloadMs.toFixed(0)} ms (from navigation), longest task ${r.reloadLongest.toFixed(0)} ms (targets: drawn < ${BIG_DRAW_TARGET_MS} ms, reload < ${BIG_RELOAD_TARGET_MS} ms, no task over ${LONG_TASK_TARGET_MS} ms)`,
      );
      console.log(
        `  traced, the page's main thread: import longest task ${r.importTraced.wallMs.toFixed(0)} ms wall, ${r.importTraced.cpuMs.toFixed(0)} ms CPU; reload ${r.reloadTraced.wallMs.toFixed(0)} ms wall, ${r.reloadTraced.cpuMs.toFixed(0)} ms CPU (wall time grows with the machine's load, CPU time is the page's own)`,
      );
      if (
        r.drawnMs >= BIG_DRAW_TARGET_MS ||
        r.reloadMs >= BIG_RELOAD_TARGET_MS ||
        Math.max(r.importLongest, r.reloadLongest) > LONG_TASK_TARGET_MS
      )
        ok = false;
    }

  // 4. template chosen -> canvas drawn
  await page.goto(server.url);
  await clearKept(page);
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=template-card]');
  const ids = await page
    .locator('[data-testid=template-card]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-template')!));
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
  console.log(
    `template to drawn canvas: median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms over ${times.length} templates (target < 300 ms)`,
  );
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
