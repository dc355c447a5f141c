/** Test helper: runs the CLI in-process in `cwd`, capturing stdout, stderr and the exit code. */
import { runCli } from './main.js';
import type { CliIo } from './commands/context.js';

export async function runCliCaptured(
  cwd: string,
  argv: readonly string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (s) => void (out += s), err: (s) => void (err += s), cwd };
  const code = await runCli([...argv], io);
  return { code, out, err };
}
