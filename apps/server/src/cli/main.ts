/**
 * The CLI (`pnpm cli` in the workspace, `retry-studio` once installed): a thin shell over
 * topology-core. Every FILE may be a design JSON or a RabbitMQ definitions JSON. Exit codes follow
 * one convention (exitCodes.ts: 0 answered, 1 bad news, 2 the question is wrong); an error names
 * the field or option, never a stack trace. Commands are loaded only when they run
 * (commandRegistry.ts), so a `lint` starts without the broker or HTTP layers.
 */
import { CliError, nodeIo, type CliIo } from './commands/context.js';
import { errnoSentence } from './commands/readUserFile.js';
import { COMMANDS, commandNamed } from './commandRegistry.js';
import { toolVersion } from './version.js';
import { announceThrowawayVhosts } from '../broker/throwawayVhost.js';
import { EXIT_CODES_HELP } from './exitCodes.js';

export interface CliOptions {
  /** how the user runs it, for usage lines */
  readonly prog?: string;
}

/** The whole usage: every command's line (loads every command module: help only). */
export async function usageText(prog = 'pnpm cli'): Promise<string> {
  const lines = await Promise.all(COMMANDS.map(async (c) => `  ${prog} ${(await c.load()).usage}`));
  return `usage: ${prog} COMMAND ...   (${prog} COMMAND --help for one command; ${prog} --version)\n${lines.join('\n')}\n\n${EXIT_CODES_HELP}\n`;
}

const commandList = (): string => COMMANDS.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`).join('\n');

export async function runCli(argv: readonly string[], io: CliIo = nodeIo(), opts: CliOptions = {}): Promise<number> {
  const prog = opts.prog ?? 'pnpm cli';
  // a throwaway vhost's name is said before it is created, where the command writes its notes
  announceThrowawayVhosts(io.err);
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    const one = cmd === 'help' && rest[0] ? commandNamed(rest[0]) : undefined;
    if (one) io.out(`usage: ${prog} ${(await one.load()).usage}\n\n${EXIT_CODES_HELP}\n`);
    else io.out(await usageText(prog));
    return cmd ? 0 : 2;
  }
  if (cmd === '--version' || cmd === '-v' || cmd === 'version') {
    io.out(`${toolVersion()}\n`);
    return 0;
  }
  const entry = commandNamed(cmd);
  if (!entry) {
    io.err(`unknown command "${cmd}"; the commands are:\n${commandList()}\n`);
    return 2;
  }
  try {
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(`usage: ${prog} ${command.usage}\n\n${EXIT_CODES_HELP}\n`);
      return 0;
    }
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof CliError) {
      io.err(`error: ${e.message}\n`);
      if (e.usageHint) io.err(`run "${prog} ${cmd} --help" for usage\n`);
      return e.exitCode;
    }
    // a system call that failed (a file, a socket): its errno in words, with the path it was about
    const sys = e as NodeJS.ErrnoException;
    if (typeof sys?.code === 'string' && typeof sys.syscall === 'string') {
      io.err(`error: ${sys.path ? `${sys.path}: ` : ''}${errnoSentence(sys)}\n`);
      return 1;
    }
    // an internal failure: still no stack trace for the user
    io.err(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
