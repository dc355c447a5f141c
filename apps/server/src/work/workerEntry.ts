/**
 * Where a worker thread's code is and how to start it. From source (tsx in dev, vitest in tests)
 * the entry is TypeScript: the worker registers tsx's loader first (Node 20 does not pass a
 * parent's loader hooks to its workers). In the package (scripts/package.mjs) the entry is
 * bundled as lib/heavy-worker.js, beside the CLI's entry; the code that starts it may sit in
 * lib/ or in lib/chunks/.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** the bundled entry's file name (scripts/package.mjs names its entry point so) */
export const BUNDLED_ENTRY = 'heavy-worker.js';

export class WorkerEntryMissing extends Error {}

function tsxApi(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch (e) {
    throw new WorkerEntryMissing(`the worker runs TypeScript from source and needs tsx: ${(e as Error).message}`);
  }
}

/** `sourceEntry`: the worker's TypeScript entry (from source); `bundledFrom`: where to look for the bundled one */
export function startWorker(sourceEntry: URL, resourceLimits: ResourceLimits, bundledFrom = import.meta.url): Worker {
  if (bundledFrom.endsWith('.ts')) {
    const code = `import(${JSON.stringify(tsxApi())}).then((m) => { m.register(); return import(${JSON.stringify(sourceEntry.href)}); })`;
    return new Worker(code, { eval: true, resourceLimits, stdout: false, stderr: false });
  }
  for (const rel of [`./${BUNDLED_ENTRY}`, `../${BUNDLED_ENTRY}`]) {
    const url = new URL(rel, bundledFrom);
    if (existsSync(fileURLToPath(url))) return new Worker(url, { resourceLimits });
  }
  throw new WorkerEntryMissing(
    `${BUNDLED_ENTRY} is missing beside ${fileURLToPath(bundledFrom)}: reinstall the package`,
  );
}
