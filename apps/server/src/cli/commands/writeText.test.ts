/** A result that cannot be written says why in words (no EISDIR, ENOENT, ENOSPC), exit 2 for the path, 1 for the disk. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cliHarness.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-write-'));
const generateTo = (out: string) => runCliCaptured(dir, ['generate', 'dlx-ttl-wait-queue', '--out', out]);

describe('writing --out', () => {
  it.each([
    [join(dir, 'missing', 'x.json'), 2, 'its directory does not exist'],
    [dir, 2, 'it is a directory, not a file'],
    ['/dev/full', 1, 'the disk is full'],
  ])('%s: exit %i, %s', async (out, code, words) => {
    const r = await generateTo(out);
    expect(r.code).toBe(code);
    expect(r.err).toBe(`error: cannot write ${out}: ${words}\n`);
    expect(r.err).not.toMatch(/E[A-Z]{3,}/);
  });
});
