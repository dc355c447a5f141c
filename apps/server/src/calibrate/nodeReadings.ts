/**
 * What calibration reads off a node: its memory breakdown by category (live, from
 * GET /api/nodes/NODE/memory), its free disk, and, when the broker's data directory is on this
 * machine (`--data-dir`), the bytes its files take on disk (isolated from other writers to the
 * same filesystem, which the node's free disk is not).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ManagementClient } from '../broker/index.js';

export interface NodeReading {
  readonly memory: Readonly<Record<string, number>>;
  /** bytes on disk: the data directory's files, or the negated free disk (both grow with what is stored) */
  readonly diskBytes: number;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** bytes the files under `dir` take on disk (allocated blocks) */
export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await dirBytes(p);
    else if (e.isFile()) {
      try {
        const s = await stat(p);
        total += s.blocks * 512;
      } catch {
        /* gone meanwhile (a rolled segment) */
      }
    }
  }
  return total;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/**
 * One reading: memory categories as the median of `samples` readings `gapMs` apart (a process's
 * heap holds garbage until it is collected), disk once.
 */
export async function readNode(
  mgmt: ManagementClient,
  node: string,
  dataDir: string | undefined,
  samples = 3,
  gapMs = 600,
): Promise<NodeReading> {
  const readings: Record<string, number>[] = [];
  for (let i = 0; i < samples; i++) {
    if (i > 0) await sleep(gapMs);
    readings.push(await mgmt.nodeMemory(node));
  }
  const memory: Record<string, number> = {};
  for (const k of Object.keys(readings[0] ?? {})) memory[k] = median(readings.map((r) => r[k] ?? 0));
  const diskBytes =
    dataDir !== undefined ? await dirBytes(dataDir) : -((await mgmt.nodeResources(node)).disk_free ?? 0);
  return { memory, diskBytes };
}

/** the change in the sum of `categories` from `a` to `b` */
export function delta(a: NodeReading, b: NodeReading, categories: readonly string[]): number {
  let d = 0;
  for (const c of categories) d += (b.memory[c] ?? 0) - (a.memory[c] ?? 0);
  return d;
}
