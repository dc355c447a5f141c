/** Steps many flows take: the two viewports, a blank start, a file opened from the toolbar's Open / Import, a live trace's end. */
import type { Page } from 'playwright-core';
import { waitFor } from './harness.js';
import { clearKept } from './storage.js';

/** the brokers scripts/brokers.sh brings up */
export const B310 = { amqp: 'amqp://guest:guest@127.0.0.1:5672/', mgmt: 'http://127.0.0.1:15672' };
export const B43 = { amqp: 'amqp://guest:guest@127.0.0.1:5673/', mgmt: 'http://127.0.0.1:15673' };

/** The Broker tab's URL: the field shows the password masked until it has focus, so focus it, type, and leave it. */
export async function setBrokerUrl(page: Page, amqp: string): Promise<void> {
  await page.click('[data-testid=tab-broker]');
  await page.click('[data-testid=broker-url]');
  await page.fill('[data-testid=broker-url]', amqp);
  await page.locator('[data-testid=broker-url]').blur();
}

/** the laptop and the desktop size every flow of issue 30 runs at */
export const SIZES = [
  { w: 1280, h: 800 },
  { w: 1440, h: 900 },
] as const;

/** The app at this size with nothing kept from a run before (My designs emptied). */
export async function blankStart(
  page: Page,
  url: string,
  size: { readonly w: number; readonly h: number },
): Promise<void> {
  await page.setViewportSize({ width: size.w, height: size.h });
  await page.goto(url);
  await clearKept(page);
  await page.goto(url);
  await page.waitForSelector('[data-testid=app]');
}

export interface FileToOpen {
  readonly name: string;
  readonly text: string | Buffer;
  readonly mimeType?: string;
}

/**
 * Opens files from the toolbar's Open / Import menu (or, `from: 'export-tab'`, the Export tab's
 * import): a definitions file or design (`import-file`), or an application's configuration with
 * its definitions (`import-app-files`). The menu stays open when it is already (a refused file
 * leaves it open for the next try).
 */
export async function openFile(
  page: Page,
  files: FileToOpen | readonly FileToOpen[],
  input: 'import-file' | 'import-app-files' = 'import-file',
  from: 'toolbar' | 'export-tab' = 'toolbar',
): Promise<void> {
  if (from === 'export-tab') await page.click('[data-testid=tab-export]');
  else if ((await page.locator('[data-testid=open-menu]').count()) === 0) await page.click('[data-testid=open-toggle]');
  const list = (Array.isArray(files) ? files : [files]) as readonly FileToOpen[];
  await page.setInputFiles(
    `${from === 'export-tab' ? '[data-testid=export-panel]' : '[data-testid=open-menu]'} [data-testid=${input}]`,
    list.map((f) => ({
      name: f.name,
      mimeType: f.mimeType ?? (/\.ya?ml$/.test(f.name) ? 'text/yaml' : 'application/json'),
      buffer: Buffer.isBuffer(f.text) ? f.text : Buffer.from(f.text),
    })),
  );
}

export const designName = (page: Page): Promise<string> => page.inputValue('[data-testid=design-name]');

/** A template opened by URL at this size (the design the template builds, on the canvas). */
export async function openTemplate(
  page: Page,
  url: string,
  size: { readonly w: number; readonly h: number },
  query: string,
): Promise<void> {
  await page.setViewportSize({ width: size.w, height: size.h });
  await page.goto(`${url}/?template=${query}`);
  await page.waitForSelector('.react-flow__node');
}

/** Waits for the Live trace tab to say the trace finished (its error, if it shows one, thrown as is). */
export async function traceFinished(page: Page): Promise<void> {
  await waitFor(
    'the trace to finish',
    async () => {
      if (await page.locator('[data-testid=trace-error]').count())
        throw new Error(await page.locator('[data-testid=trace-error]').innerText());
      return (await page.locator('[data-testid=trace-status]').innerText()).startsWith('finished');
    },
    90_000,
  );
}
