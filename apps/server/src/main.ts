/** `pnpm --filter @retry-studio/server start`: the server from source (tsx), as `retry-studio serve`. */
import { runCli } from './cli/main.js';

runCli(['serve', ...process.argv.slice(2)]).then(
  (code) => process.exit(code),
  () => process.exit(1),
);
