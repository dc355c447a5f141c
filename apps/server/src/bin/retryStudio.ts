/** The `retry-studio` command (the package's bin) and `pnpm cli` in the workspace. */
// first: V8's tiering for a short run (shortRunTiering.ts), before any command's code runs
import './shortRunTiering.js';
import { runCli } from '../cli/main.js';
import { nodeIo } from '../cli/commands/context.js';
import { exitAfterCleanup } from '../broker/throwawayVhost.js';

// a reader that went away (`retry-studio lint big.json | head`) ends the command quietly, as for any Unix tool,
// once the throwaway vhosts of a verify under way are deleted
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') exitAfterCleanup(Number(process.exitCode ?? 0));
    else throw e;
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
