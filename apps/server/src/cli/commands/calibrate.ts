/** `retry-studio calibrate` (`pnpm calibrate`): a broker measured into a retry-calibration/1 file for `rehearse --calibration` and `tune --calibration`. */
import { intValue, listValue, parseArgs, value } from './args.js';
import { CliError, writeText, type CliIo } from './context.js';

export const CALIBRATE_USAGE =
  'calibrate --url AMQP_URL [--management-url URL] [--out FILE] [--data-dir DIR] [--messages N] [--runs N] [--ceiling-messages N] [--vhost-prefix P] [--storages classic,quorum,...] [--measure footprint,flow,ceilings,delayed-exchange] [--note TEXT]';

export async function calibrateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: [
      'url',
      'management-url',
      'out',
      'data-dir',
      'messages',
      'runs',
      'ceiling-messages',
      'vhost-prefix',
      'storages',
      'measure',
      'note',
    ],
    switches: [],
  });
  if (a.positionals.length > 0)
    throw new CliError(`unexpected ${JSON.stringify(a.positionals[0])}; usage: ${CALIBRATE_USAGE}`, 2);
  const url = value(a, 'url');
  if (url === undefined)
    throw new CliError(
      `--url is required (the broker to measure, like amqp://guest:guest@127.0.0.1:5672/); usage: ${CALIBRATE_USAGE}`,
      2,
    );
  const messages = intValue(a, 'messages', 100, 10_000_000) ?? 20_000;
  const runs = intValue(a, 'runs', 1, 100) ?? 3;
  const ceilingMessages = intValue(a, 'ceiling-messages', 100, 10_000_000) ?? 10_000;
  const prefix = value(a, 'vhost-prefix') ?? 'rs-calibrate';
  if (!/^[A-Za-z0-9._-]{1,60}$/.test(prefix))
    throw new CliError(`--vhost-prefix: "${prefix}" must be 1-60 letters, digits, dots, dashes or underscores`, 2);
  const { QUEUE_STORAGES } = await import('@retry-studio/topology-core/calibration');
  const storages = listValue(a, 'storages', QUEUE_STORAGES);
  const { CALIBRATION_PARTS } = await import('../../calibrate/calibrate.js');
  const measure = listValue(a, 'measure', CALIBRATION_PARTS);
  const dataDir = value(a, 'data-dir');
  if (dataDir !== undefined) {
    const { stat } = await import('node:fs/promises');
    const s = await stat(dataDir).catch(() => undefined);
    if (!s?.isDirectory()) throw new CliError(`--data-dir ${dataDir}: not a directory on this machine`, 2);
  }
  // the broker layer is loaded only here
  const { brokerTarget, VerifyTargetError } = await import('../../rehearse/verifyOnBroker.js');
  let target;
  try {
    target = await brokerTarget(url, value(a, 'management-url'));
  } catch (e) {
    if (e instanceof VerifyTargetError) throw new CliError(e.message.replace('--verify-on', '--url'), 2);
    throw e;
  }
  const nodes = await target.management.nodes();
  const node = nodes.find((n) => n.running)?.name;
  if (!node) throw new CliError(`--url: the management API lists no running node`, 2);
  const { calibrate } = await import('../../calibrate/calibrate.js');
  const note = value(a, 'note');
  const cal = await calibrate(
    {
      target,
      node,
      ...(dataDir !== undefined ? { dataDir } : {}),
      messages,
      ceilingMessages,
      runs,
      vhostPrefix: prefix,
      log: (line) => io.err(`${line}\n`),
    },
    {
      ...(note !== undefined ? { note } : {}),
      ...(storages ? { storages } : {}),
      ...(measure ? { measure } : {}),
    },
  );
  const text = JSON.stringify(cal, null, 2) + '\n';
  const out = value(a, 'out');
  if (out === undefined) io.out(text);
  else {
    await writeText(io, out, text);
    io.err(`wrote ${out}\n`);
  }
  return 0;
}
