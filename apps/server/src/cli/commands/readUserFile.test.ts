import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('a device with no end stops at the cap (/dev/zero), and says it is over', async () => {
    expect(await problem('/dev/zero', 4 * 1024 * 1024)).toMatchObject({ kind: 'binary' });
    expect(await problem('/dev/urandom', 1024 * 1024)).toMatchObject({
      kind: expect.stringMatching(/binary|too-large/),
    });
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
