/** The `retry-studio` command (the package's bin) and `pnpm cli` in the workspace. */
import { runCli } from '../cli/main.js';
import { nodeIo } from '../cli/commands/context.js';

// a reader that went away (`retry-studio lint big.json | head`) ends the command quietly, as for any Unix tool
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const prog = process.env.RETRY_STUDIO_PROG || 'retry-studio';
runCli(process.argv.slice(2), nodeIo(), { prog }).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
