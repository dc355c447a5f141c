/** The `retry-studio` command (the package's bin) and `pnpm cli` in the workspace. */
import { runCli } from '../cli/main.js';
import { nodeIo } from '../cli/commands/context.js';

const prog = process.env.RETRY_STUDIO_PROG || 'retry-studio';
runCli(process.argv.slice(2), nodeIo(), { prog }).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
