/**
 * pnpm bench:trace-browser — a 10,000-message live trace watched in the real web app, in
 * headless Debian Chromium, against the real server and broker (AMQP_URL, default the 3.10
 * broker at 127.0.0.1:5672; `AMQP_URL=amqp://guest:guest@127.0.0.1:5673/` for 4.3).
 *
 * The workload is bench:trace's chain burst: the three-tier `chained-ttl` template (50/100/200 ms
 * waits, workers taking 50 at a time) deployed through the API, opened in the app (import), and
 * traced from the app's Trace tab with 10,000 messages and failFirst 3 (four deliveries and three
 * TTL waits each): one burst, about 360,000 events.
 *
 * Measured in the page while the trace runs (from Start to "finished"):
 *  - requestAnimationFrame frames per 1-second window: median and worst window (target >= 30 fps);
 *  - for every `delivered` event, the time from the broker's delivery to the worker (the amqplib
 *    consume callback, epoch ms from the server's `?timing=1` stream read by this process) to the
 *    app's own EventSource dispatching that event in the page (epoch ms, recorded by a listener
 *    added before the app's): p50/p95/p99 (target p95 < 100 ms).
 * Prints one `name: value` per line. `--no-build` skips building the web app.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { type Design } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { launchChromium } from './lib/chromium.js';
import { buildWeb, startServer } from './lib/server.js';

const MESSAGES = Number(process.env.BENCH_TRACE_MESSAGES ?? 10_000);
const broker = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/';

function line(name: string, value: string | number): void {
  console.log(`${name}: ${typeof value === 'number' ? (Number.isInteger(value) ? value : value.toFixed(1)) : value}`);
}

function pct(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function api(base: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(
    base + path,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const j = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(j)}`);
  return j;
}

/** Reads the server's timing stream: delivery time (epoch ms) of every `delivered` event by seq. */
async function readTiming(url: string, out: Map<number, number>, signal: AbortSignal): Promise<void> {
  const res = await fetch(url, { signal });
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, i);
      buf = buf.slice(i + 2);
      if (!frame.startsWith(': rx=')) continue;
      const lines = frame.split('\n');
      const data = lines.find((l) => l.startsWith('data: '));
      const id = lines.find((l) => l.startsWith('id: '));
      if (id && data?.startsWith('data: {"kind":"delivered"')) out.set(Number(id.slice(4)), Number(lines[0]!.slice(5)));
      if (frame.includes('event: end')) return;
    }
  }
}

// Page scripts are strings: tsx's keepNames would inject a helper the page does not have.
const INIT = `
window.__bench = { frames: [], recv: [] };
(() => {
  const f = (now) => { window.__bench.frames.push(performance.timeOrigin + now); requestAnimationFrame(f); };
  requestAnimationFrame(f);
  const ES = window.EventSource;
  window.EventSource = class extends ES {
    constructor(u, o) {
      super(u, o);
      // registered before the app's handlers: when the page got the message (a batch's id is its last event's seq)
      const at = (e) => { window.__bench.recv.push(Number(e.lastEventId), performance.timeOrigin + performance.now()); };
      this.addEventListener('message', at);
      this.addEventListener('batch', at);
    }
  };
})();
`;

const skipBuild = process.argv.includes('--no-build');
if (!skipBuild) buildWeb();
const server = await startServer();
const browser = await launchChromium();
const prefix = `rs-bench-ui.${Date.now().toString(36)}.`;
let design: Design | undefined;
let ok = true;
const timingAbort = new AbortController();
try {
  const probe = await api(server.url, '/api/broker', { broker });
  const r = buildTemplate('chained-ttl', { delaysMs: [50, 100, 200] });
  if (!r.ok) throw new Error(`chained-ttl: ${JSON.stringify(r.errors)}`);
  const d = r.template.design;
  design = {
    ...d,
    name: 'bench-trace-ui',
    ...(probe.suggestedProfile ? { profile: probe.suggestedProfile } : {}),
    consumers: d.consumers.map((c) => ({ ...c, prefetch: 50 })),
  };
  await api(server.url, '/api/deploy', { design, prefix, broker });
  line('trace_browser_broker', `${probe.product} ${probe.version}`);

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(INIT);
  await page.goto(`${server.url}/?template=chained-ttl`);
  await page.waitForSelector('.react-flow__node');
  // the machine's own frame rate with an idle page (the ceiling under the current load)
  const idleFps = (await page.evaluate(`new Promise((resolve) => {
    const f0 = window.__bench.frames.length, t0 = performance.now();
    setTimeout(() => resolve((window.__bench.frames.length - f0) / ((performance.now() - t0) / 1000)), 2000);
  })`)) as number;
  // open the deployed design in the app, aim it at the deployment
  await page.click('[data-testid=tab-export]');
  await page.fill('[data-testid=import-text]', JSON.stringify(design));
  await page.click('[data-testid=import-apply]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-queue]').length === 8, null, {
    timeout: 20_000,
  });
  await page.click('[data-testid=tab-broker]');
  // focus first: the field shows the URL masked until edited
  await page.click('[data-testid=broker-url]');
  await page.fill('[data-testid=broker-url]', broker);
  await page.locator('[data-testid=broker-url]').blur();
  await page.fill('[data-testid=deploy-prefix]', prefix);
  await page.click('[data-testid=tab-trace]');
  await page.fill('[data-testid=trace-count]', String(MESSAGES));
  await page.selectOption('[data-testid=trace-failure]', 'failFirst');
  await page.fill('[data-testid=trace-failure-n]', '3');
  // BENCH_TRACE_PROFILE=FILE: the page's CPU profile during the trace (chrome devtools format)
  const cdp = process.env.BENCH_TRACE_PROFILE ? await page.context().newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const started = page.waitForResponse((res) => res.url().endsWith('/api/trace') && res.request().method() === 'POST');
  const t0 = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
  await page.click('[data-testid=trace-start]');
  const res = await started;
  const t = (await res.json()) as { id: string; events: string; error?: string };
  if (!res.ok()) throw new Error(`POST /api/trace: ${res.status()} ${JSON.stringify(t)}`);
  const rx = new Map<number, number>();
  const timing = readTiming(`${server.url}${t.events}?timing=1`, rx, timingAbort.signal).catch((e: Error) => {
    if (e.name !== 'AbortError') throw e;
  });
  const deadline = Date.now() + 15 * 60_000;
  let status = '';
  for (;;) {
    status = await page.locator('[data-testid=trace-status]').innerText();
    if (status.startsWith('finished')) break;
    if (await page.locator('[data-testid=trace-error]').count())
      throw new Error(await page.locator('[data-testid=trace-error]').innerText());
    if (Date.now() > deadline) throw new Error(`the trace did not finish: ${status}`);
    await page.waitForTimeout(1000);
  }
  const t1 = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(process.env.BENCH_TRACE_PROFILE!, JSON.stringify(profile));
  }
  await Promise.race([timing, new Promise((r) => setTimeout(r, 5000))]);
  const summary = await api(server.url, `/api/trace/${t.id}`);
  const { frames, recv } = (await page.evaluate('({ frames: window.__bench.frames, recv: window.__bench.recv })')) as {
    frames: number[];
    recv: number[];
  };

  // fps per 1-second window of the trace
  const inTrace = frames.filter((f) => f >= t0 && f <= t1);
  const windows: number[] = [];
  for (let w = t0; w + 1000 <= t1; w += 1000) windows.push(inTrace.filter((f) => f >= w && f < w + 1000).length);
  const sortedW = [...windows].sort((a, b) => a - b);
  let worstFrame = 0;
  for (let i = 1; i < inTrace.length; i++) worstFrame = Math.max(worstFrame, inTrace[i]! - inTrace[i - 1]!);
  // delivery -> the app's EventSource, per delivered event
  // a message carries the events up to its id (ids ascend): each delivery was received with the first message whose id reaches its seq
  const got: Array<[number, number]> = [];
  for (let i = 0; i < recv.length; i += 2) got.push([recv[i]!, recv[i + 1]!]);
  got.sort((a, b) => a[0] - b[0]);
  const lat: number[] = [];
  for (const [seq, at] of rx) {
    let lo = 0;
    let hi = got.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (got[mid]![0] < seq) lo = mid + 1;
      else hi = mid;
    }
    if (lo < got.length) lat.push(got[lo]![1] - at);
  }
  lat.sort((a, b) => a - b);
  line('trace_browser_machine_load_1min', loadavg()[0]!);
  line('trace_browser_messages', MESSAGES);
  line('trace_browser_seconds', (t1 - t0) / 1000);
  line(
    'trace_browser_state',
    `${summary.state} (published ${summary.published}: acked ${summary.acked}, parked ${summary.parked}, in flight ${summary.inFlight}, dropped ${summary.dropped}; balanced ${summary.balanced})`,
  );
  line('trace_browser_events', summary.events);
  line('trace_browser_sse_messages_received_by_page', recv.length / 2);
  line('trace_browser_status', status);
  line('trace_browser_idle_page_fps', idleFps);
  line('trace_browser_fps_windows', windows.join(','));
  line('trace_browser_fps_median_1s', pct(sortedW, 50));
  line('trace_browser_fps_worst_1s', sortedW[0] ?? NaN);
  line('trace_browser_fps_mean', inTrace.length / ((t1 - t0) / 1000));
  line('trace_browser_worst_frame_ms', worstFrame);
  line('trace_browser_deliveries_measured', lat.length);
  line('trace_browser_delivery_to_page_event_p50_ms', pct(lat, 50));
  line('trace_browser_delivery_to_page_event_p95_ms', pct(lat, 95));
  line('trace_browser_delivery_to_page_event_p99_ms', pct(lat, 99));
  line('trace_browser_server_delivery_to_event_out_p95_ms', summary.latencyMs.p95);
  const fpsOk = (sortedW[0] ?? 0) >= 30;
  const latOk = pct(lat, 95) < 100;
  line('trace_browser_target_fps_ge_30', fpsOk ? 'met' : 'NOT met');
  line('trace_browser_target_p95_lt_100ms', latOk ? 'met' : 'NOT met');
  if (!fpsOk || !latOk || summary.balanced !== true) ok = false;
  if (errors.length) {
    line('trace_browser_page_errors', errors.join('; '));
    ok = false;
  }
} finally {
  timingAbort.abort();
  if (design)
    await api(server.url, '/api/teardown', { designName: design.name, prefix, broker, force: true }).catch((e: Error) =>
      console.error(e.message),
    );
  await browser.close();
  await server.stop();
}
console.log(ok ? 'bench:trace-browser: targets met' : 'bench:trace-browser: a target was missed');
process.exit(ok ? 0 : 1);
