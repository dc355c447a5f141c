/**
 * `pnpm cli`: a thin shell over topology-core. Every FILE may be a design JSON or a RabbitMQ
 * definitions JSON. Bad input prints a message naming the field and exits 1 (2 for usage);
 * never a stack trace.
 */
import { pathToFileURL } from 'node:url';
import { CliError, nodeIo, type CliIo } from './commands/context.js';
import { templatesCommand, TEMPLATES_USAGE } from './commands/templates.js';
import { generateCommand, GENERATE_USAGE } from './commands/generate.js';
import { lintCommand, LINT_USAGE } from './commands/lint.js';
import { simulateCommand, SIMULATE_USAGE } from './commands/simulate.js';
import { exportCommand, EXPORT_USAGE } from './commands/exportCmd.js';
import { importCommand, IMPORT_USAGE } from './commands/importCmd.js';
import { compareCommand, COMPARE_USAGE } from './commands/compare.js';
import { scenarioCommand, SCENARIO_USAGE } from './commands/scenario.js';
import { importBrokerCommand, IMPORT_BROKER_USAGE } from './commands/importBroker.js';
import { dlqCommand, DLQ_USAGE } from './commands/dlq.js';
import { renameCommand, RENAME_USAGE } from './commands/rename.js';
import { upgradeCheckCommand, UPGRADE_CHECK_USAGE } from './commands/upgradeCheck.js';

const COMMANDS: Record<string, (argv: readonly string[], io: CliIo) => Promise<number>> = {
  templates: templatesCommand,
  generate: generateCommand,
  lint: lintCommand,
  simulate: simulateCommand,
  export: exportCommand,
  import: importCommand,
  compare: compareCommand,
  scenario: scenarioCommand,
  'import-broker': importBrokerCommand,
  dlq: dlqCommand,
  rename: renameCommand,
  'upgrade-check': upgradeCheckCommand,
};

export const USAGE = `usage: pnpm cli COMMAND ...
  ${TEMPLATES_USAGE}
  ${GENERATE_USAGE}
  ${LINT_USAGE}
  ${SIMULATE_USAGE}
  ${EXPORT_USAGE}
  ${IMPORT_USAGE}
  ${COMPARE_USAGE}
  ${SCENARIO_USAGE}
  ${IMPORT_BROKER_USAGE}
  ${DLQ_USAGE}
  ${RENAME_USAGE}
  ${UPGRADE_CHECK_USAGE}
`;

export async function runCli(argv: readonly string[], io: CliIo = nodeIo()): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    io.out(USAGE);
    return cmd ? 0 : 2;
  }
  const run = COMMANDS[cmd];
  if (!run) {
    io.err(`unknown command "${cmd}"\n${USAGE}`);
    return 2;
  }
  try {
    return await run(rest, io);
  } catch (e) {
    if (e instanceof CliError) {
      io.err(`error: ${e.message}\n`);
      if (e.exitCode === 2) io.err(`run "pnpm cli help" for usage\n`);
      return e.exitCode;
    }
    // an internal failure: still no stack trace for the user
    io.err(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = 1;
    },
  );
}
