/**
 * One convention for every command's exit code, printed by `--help` and written in the README:
 * 0 the command answered; 1 it answered and the answer is bad news; 2 it could not answer because
 * the question is wrong. A command returns 0 or 1 from its answer (`answered`); what stops it
 * before it can answer is thrown as a CliError with code 2 (`wrongQuestion`), or 1 when the file
 * it was given is itself the bad news (content the broker refuses, named by field).
 */
import { CliError } from './commands/context.js';

export const EXIT = {
  /** the command answered, and nothing in the answer is wrong */
  answered: 0,
  /** lint errors, a refused upgrade or a changed fate, a retry that never ends, a proof or verification that disagrees, a re-drive that moved less than it selected, a file whose content the broker refuses */
  badNews: 1,
  /** a bad or missing option, a file that cannot be read, a multi-vhost file without --vhost where one is needed, an unreachable broker */
  wrongQuestion: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The convention in a few lines, for `--help`. */
export const EXIT_CODES_HELP = [
  'exit codes (every command):',
  '  0  answered',
  '  1  the answer is bad news: lint errors, a refused declaration or changed fate in upgrade-check, a retry',
  '     that never ends in simulate or compare, a verification that disagrees, a re-drive that moved less than',
  '     it selected, a file whose content the broker would refuse (the field is named)',
  '  2  the question is wrong: a bad or missing option, a file that cannot be read, a multi-vhost file without',
  '     --vhost where the command needs one vhost, an unreachable broker',
  'a file with several vhosts is answered per vhost wherever the command can (each vhost is named)',
].join('\n');

/** The exit code of an answer. */
export const answered = (badNews: boolean): ExitCode => (badNews ? EXIT.badNews : EXIT.answered);

/** The worst of several answers (one per vhost). */
export const worstOf = (codes: readonly number[]): number => Math.max(EXIT.answered, ...codes);

/** What stops a command before it answers: the question is wrong (exit 2). */
export const wrongQuestion = (message: string): CliError => new CliError(message, EXIT.wrongQuestion);
