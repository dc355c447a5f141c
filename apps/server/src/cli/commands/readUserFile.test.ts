import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cliHarness.js';
import { FileReadError, readUserFile } from './readUserFile.js';

const problem = async (p: string, max?: number) => {
  try {
    await readUserFile(p, max);
  } catch (e) {
    if (e instanceof FileReadError) return e.problem;
    throw e;
  }
  return undefined;
};

describe('readUserFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-read-'));

  it('reads text', async () => {
    writeFileSync(join(dir, 'a.json'), '{"a": 1}');
    expect(await readUserFile(join(dir, 'a.json'))).toBe('{"a": 1}');
  });

  it('a file over the cap is refused before it is read, saying the cap', async () => {
    writeFileSync(join(dir, 'big.json'), 'x'.repeat(3 * 1024 * 1024));
    expect(await problem(join(dir, 'big.json'), 2 * 1024 * 1024)).toEqual({
      kind: 'too-large',
      message: 'it is 3 MB, over the 2 MB a file may have here',
    });
  });

  it('a device is refused before it is read (/dev/zero has no end)', async () => {
    for (const dev of ['/dev/zero', '/dev/urandom'])
      expect(await problem(dev)).toEqual({ kind: 'unreadable', message: 'it is a device, not a file' });
  });

  it('a FIFO is refused before it is opened (opening one waits for a writer forever)', async () => {
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    expect(await problem(fifo)).toEqual({
      kind: 'unreadable',
      message: 'it is a named pipe (FIFO), not a file: save what it carries to a file and give that',
    });
    // the commands that hung on one: lint, import-app
    for (const argv of [
      ['lint', fifo],
      ['import-app', fifo],
    ]) {
      const r = await runCliCaptured(dir, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain(`cannot read ${fifo}: it is a named pipe (FIFO), not a file`);
    }
  });

  it('binary input is not text, and its bytes are not echoed', async () => {
    writeFileSync(join(dir, 'b.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff]));
    const p = await problem(join(dir, 'b.bin'));
    expect(p).toEqual({
      kind: 'binary',
      message: 'it is not text (it holds binary data): give a JSON, YAML or properties file',
    });
  });

  it('errno codes become sentences', async () => {
    expect(await problem(join(dir, 'missing.json'))).toEqual({ kind: 'unreadable', message: 'no such file' });
    expect(await problem(dir)).toEqual({ kind: 'unreadable', message: 'it is a directory, not a file' });
    symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
    symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
    expect(await problem(join(dir, 'loop-a'))).toEqual({
      kind: 'unreadable',
      message: 'its path goes round a loop of symbolic links',
    });
    expect(await problem(join(dir, 'a.json', 'x'))).toEqual({
      kind: 'unreadable',
      message: 'a part of its path is not a directory',
    });
  });
});
