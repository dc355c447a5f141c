import { templateToScenario } from '@retry-studio/topology-core/templates';
import { flag, parseArgs, value } from './args.js';
import { CliError, writeOutput, type CliIo } from './context.js';
import { portableOrFail } from './exportArgs.js';
import { buildTemplateOrFail, templateParams } from './templateArgs.js';

export const SCENARIO_USAGE =
  'scenario ID [--param k=v ...] [--portable] [--name NAME] [--out FILE]   a retry-scenario/1 file to replay with pnpm conformance';

export async function scenarioCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['param', 'name', 'out'], switches: ['portable'] });
  const id = a.positionals[0];
  if (!id || a.positionals.length > 1) throw new CliError(`usage: ${SCENARIO_USAGE}`, 2);
  let built = buildTemplateOrFail(id, templateParams(id, a));
  // the compiled design no longer needs the delayed-message plugin
  if (flag(a, 'portable')) built = { ...built, design: portableOrFail(built.design, id).design, requires: [] };
  const s = templateToScenario(built, value(a, 'name') ?? `template-${id}`);
  if (!s.ok) throw new CliError(`${id} cannot be written as a retry-scenario/1 file: ${s.reason}`);
  await writeOutput(io, value(a, 'out'), JSON.stringify(s.scenario, null, 2) + '\n');
  return 0;
}
