/** A tiny flow harness: each flow gets a fresh browser context; console errors fail it. */
import type { Browser, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server.js';

export const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');

export interface FlowCtx {
  page: Page;
  url: string;
  /** save a screenshot under e2e/artifacts/<flow>-<name>.png */
  shot(name: string): Promise<void>;
}

export interface Flow {
  name: string;
  /** needs the real broker */
  broker?: boolean;
  /**
   * HTTP refusals the app asks for and handles (e.g. `409 POST /api/teardown`: the server refuses
   * to delete queues holding messages until the user confirms). Chromium logs every 4xx as a
   * console error; those, and only those, are not held against the flow.
   */
  expectedHttpErrors?: string[];
  run(ctx: FlowCtx): Promise<void>;
}

export class AssertionError extends Error {}

export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new AssertionError(message);
}

export async function waitFor<T>(
  what: string,
  f: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await f();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end)
      throw new AssertionError(`timed out waiting for ${what}${last ? ` (${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface FlowResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  error?: string;
}

export async function runFlow(browser: Browser, url: string, flow: Flow): Promise<FlowResult> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url }).catch(() => undefined);
  const page = await context.newPage();
  const problems: string[] = [];
  let expectedSeen = 0;
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (expectedSeen > 0 && /^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) {
      expectedSeen--;
      return;
    }
    problems.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // name the request behind a "Failed to load resource" console error
  page.on('response', (r) => {
    if (r.status() < 400) return;
    const what = `${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`;
    if (flow.expectedHttpErrors?.includes(what)) expectedSeen++;
    else problems.push(`  (${what})`);
  });
  const t0 = Date.now();
  const slug = flow.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  const ctx: FlowCtx = {
    page,
    url,
    shot: (n) => page.screenshot({ path: join(ARTIFACTS, `${slug}-${n}.png`) }).then(() => undefined),
  };
  try {
    await flow.run(ctx);
    await ctx.shot('end');
    if (problems.length) throw new AssertionError(`console errors:\n  ${problems.join('\n  ')}`);
    return { name: flow.name, status: 'passed', ms: Date.now() - t0 };
  } catch (e) {
    await ctx.shot('failure').catch(() => undefined);
    return {
      name: flow.name,
      status: 'failed',
      ms: Date.now() - t0,
      error: (e as Error).message.split('\n').slice(0, 12).join('\n'),
    };
  } finally {
    await context.close();
  }
}

/** Drags from the centre of one element to the centre of another with real mouse moves (React Flow connections). */
export async function mouseDrag(page: Page, from: string, to: string): Promise<void> {
  const a = await page.locator(from).first().boundingBox();
  const b = await page.locator(to).first().boundingBox();
  assert(a && b, `no box for ${!a ? from : to}`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 8 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Opens the design's first worker in the inspector. The canvas opens at 100 % from its left edge,
 * so the worker may be off-screen until the view is fitted; the side panel may still show the tab
 * an earlier step left open. */
export async function openFirstWorker(page: Page): Promise<void> {
  await page.click('[data-testid=cmd-fitView]');
  await page.waitForTimeout(300);
  await page.click('[data-testid=node-consumer] >> nth=0');
  await page.click('[data-testid=tab-inspect]');
}
