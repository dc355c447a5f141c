/**
 * Reads a file a user named, as text, with a bounded size (MAX_FILE_BYTES) and errors in
 * sentences: a FIFO, socket or device is refused before it is opened (a FIFO hung `lint` and
 * `import-app`; `/dev/zero` once read 512 MB before "Invalid string length"), a file over the cap
 * is refused before it is read, binary input says it is not text (instead of a parse error that
 * echoes raw bytes), and errno codes become what they mean (errnoSentence: the CLI's writes and
 * its last-resort error say them too).
 */
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';

/** the largest file the CLI reads (a 50 MB whole-broker export reads well within it) */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

const ERRNO_SENTENCES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory, not a file',
  ENOTDIR: 'a part of its path is not a directory',
  EACCES: 'permission denied (this user may not read it)',
  EPERM: 'the operation is not permitted (this user may not read it)',
  ELOOP: 'its path goes round a loop of symbolic links',
  ENAMETOOLONG: 'its name is too long',
  EMFILE: 'too many files are open in this process',
  ENFILE: 'too many files are open on this machine',
  EIO: 'the disk reported an input/output error',
  ENXIO: 'it is a device or socket with nothing behind it',
  EAGAIN: 'it is not ready to be read (a pipe or device with no data yet)',
  ENOSPC: 'the disk is full',
  EDQUOT: "this user's disk quota is used up",
  EROFS: 'the file system is read-only',
  EFBIG: 'the file would be larger than this file system allows',
  EEXIST: 'something with that name exists already',
  ENOTEMPTY: 'the directory is not empty',
  EBUSY: 'it is in use by another program',
  ETXTBSY: 'it is a program that is running',
};

/** why a file could not be read (or written), as a sentence (the errno code only when it is not a known one) */
export function errnoSentence(e: unknown, doing: 'reading' | 'writing' = 'reading'): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (doing === 'writing' && code === 'ENOENT') return 'its directory does not exist';
  if (doing === 'writing' && (code === 'EACCES' || code === 'EPERM'))
    return 'permission denied (this user may not write there)';
  if (code && ERRNO_SENTENCES[code]) return ERRNO_SENTENCES[code]!;
  return code ? `the system refused it (${code})` : String((e as Error).message ?? e);
}

export type ReadProblem =
  | { readonly kind: 'unreadable'; readonly message: string }
  | { readonly kind: 'too-large'; readonly message: string }
  | { readonly kind: 'binary'; readonly message: string };

export class FileReadError extends Error {
  constructor(readonly problem: ReadProblem) {
    super(problem.message);
  }
}

/** binary data: a NUL byte in the first 8 KB (text files of every encoding we read have none) */
function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/** what a path names when it is not a regular file or a directory (opening a FIFO waits for a writer forever) */
function notAFile(st: Stats): string | undefined {
  if (st.isFIFO()) return 'it is a named pipe (FIFO), not a file: save what it carries to a file and give that';
  if (st.isSocket()) return 'it is a socket, not a file';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'it is a device, not a file';
  return undefined;
}

/** The file's text, or a FileReadError whose message says what is wrong (without the file's bytes). */
export async function readUserFile(path: string, maxBytes = MAX_FILE_BYTES): Promise<string> {
  // looked at before it is opened: open() on a FIFO blocks until something writes to it
  const what = await stat(path).then(notAFile, () => undefined);
  if (what) throw new FileReadError({ kind: 'unreadable', message: what });
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw new FileReadError({ kind: 'unreadable', message: errnoSentence(e) });
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new FileReadError({ kind: 'unreadable', message: ERRNO_SENTENCES.EISDIR! });
    const capText = `${Math.round(maxBytes / (1024 * 1024))} MB`;
    if (st.isFile() && st.size > maxBytes)
      throw new FileReadError({
        kind: 'too-large',
        message: `it is ${(st.size / (1024 * 1024)).toFixed(0)} MB, over the ${capText} a file may have here`,
      });
    // a device or a pipe has no size: read up to the cap, and one byte more to know it is over
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes)
        throw new FileReadError({
          kind: 'too-large',
          message: `it holds more than the ${capText} a file may have here`,
        });
      chunks.push(Buffer.from(buf.subarray(0, bytesRead)));
      if (chunks.length === 1 && looksBinary(chunks[0]!))
        throw new FileReadError({
          kind: 'binary',
          message: 'it is not text (it holds binary data): give a JSON, YAML or properties file',
        });
    }
    const all = Buffer.concat(chunks, total);
    if (looksBinary(all))
      throw new FileReadError({
        kind: 'binary',
        message: 'it is not text (it holds binary data): give a JSON, YAML or properties file',
      });
    return all.toString('utf8');
  } catch (e) {
    if (e instanceof FileReadError) throw e;
    throw new FileReadError({ kind: 'unreadable', message: errnoSentence(e) });
  } finally {
    await handle.close().catch(() => undefined);
  }
}
