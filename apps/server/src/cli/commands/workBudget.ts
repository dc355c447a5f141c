/**
 * What one CLI command may take: its work is sized before it starts (the core's sizing floor,
 * the same estimate the server's workers use) and refused with exit 2 naming the option that
 * makes it big, before anything is allocated. Time is not limited (a command may run long when
 * asked to); memory is (a fourth of this machine's, at most 1.5 GB: `tune --duration 1000000h`
 * once took 21 GB of a 24 GB machine), and so is the answer (a string past about 512 MB cannot
 * be written at all).
 */
import { totalmem } from 'node:os';
import { checkBudget, type WorkBudget, type WorkSize } from '@retry-studio/topology-core/sizing';
import { CliError } from './context.js';

export const CLI_BUDGET: WorkBudget = {
  holder: 'this command',
  bytes: Math.min(1.5e9, totalmem() / 4),
  steps: Infinity,
  answerBytes: 256e6,
};

/** throws exit 2 naming the option when the work is over the command's budget */
export function refuseOverBudget(size: WorkSize, budget: WorkBudget = CLI_BUDGET): void {
  const v = checkBudget(size, budget);
  if (!v.ok) throw new CliError(`${v.driver.option}: ${v.message}`, 2);
}
