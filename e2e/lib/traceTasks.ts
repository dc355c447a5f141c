/**
 * The page's tasks from a Chromium performance trace (Playwright's browser.startTracing with the
 * DevTools' timeline categories, where RunTask is): each task of the renderer's main thread with its wall time and its
 * thread time (the CPU the page itself used). On a shared machine the wall time of a task grows with the
 * load (the renderer waits for a core); its thread time is what the page did.
 */
import type { Browser, Page } from 'playwright-core';

export interface PageTask {
  /** ms from the first task traced */
  readonly at: number;
  readonly wallMs: number;
  readonly cpuMs: number;
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: {
    readonly name?: string;
    readonly data?: { readonly frames?: readonly { readonly processId?: number }[] };
  };
}

/**
 * The traced page's main thread's tasks: the renderer the trace names for the page's frames
 * (TracingStartedInBrowser), else the renderer whose main thread ran the most tasks.
 */
export function pageTasks(trace: Buffer): PageTask[] {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const traced = new Set(
    events
      .filter((e) => e.name === 'TracingStartedInBrowser')
      .flatMap((e) => e.args?.data?.frames ?? [])
      .map((f) => f.processId),
  );
  const mains = events.filter(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && (traced.size === 0 || traced.has(e.pid)),
  );
  let best: PageTask[] = [];
  for (const m of mains) {
    const tasks = events
      .filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && e.name === 'RunTask')
      .sort((a, b) => a.ts - b.ts);
    if (tasks.length <= best.length) continue;
    const t0 = tasks[0]!.ts;
    best = tasks.map((e) => ({ at: (e.ts - t0) / 1000, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 }));
  }
  return best;
}

/** Runs `work` under a trace of the page and returns its main thread's tasks. */
export async function tracedTasks(browser: Browser, page: Page, work: () => Promise<void>): Promise<PageTask[]> {
  await browser.startTracing(page, {
    categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  let failed: unknown;
  try {
    await work();
  } catch (e) {
    failed = e;
  }
  const trace = await browser.stopTracing();
  if (failed) throw failed;
  return pageTasks(trace);
}

/** the longest task by wall time and by thread time (not necessarily the same task) */
export const longest = (tasks: readonly PageTask[]) => ({
  wallMs: Math.max(0, ...tasks.map((t) => t.wallMs)),
  cpuMs: Math.max(0, ...tasks.map((t) => t.cpuMs)),
});

/** an init script: the page's long tasks (a PerformanceObserver for `longtask`), each [start, duration] on its clock */
export const LONG_TASK_RECORDER = `window.__longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });`;

/** the longest task LONG_TASK_RECORDER saw start at `from` (ms on the page's clock) or later, by wall time */
export const longestTaskSince = async (page: Page, from: number): Promise<number> =>
  (await page.evaluate(`Math.max(0, ...window.__longTasks.filter(([s]) => s >= ${from}).map(([, d]) => d))`)) as number;
