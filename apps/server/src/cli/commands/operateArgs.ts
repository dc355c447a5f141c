/** What `import-broker` and `dlq` share: the broker target flags and the error mapping. */
import type { ChannelModel } from 'amqplib';
import {
  AmqpUrlError,
  BrokerConnectError,
  HostNotAllowedError,
  ManagementError,
  ManagementResolutionError,
  ManagementUrlError,
  openConnection,
  resolveBrokerUrl,
} from '../../broker/index.js';
import { OperateError, operateTarget, type OperateTarget } from '../../operate/operateTarget.js';
import { value, type ParsedArgs } from './args.js';
import { CliError } from './context.js';

export const TARGET_FLAGS = ['url', 'vhost', 'management-url'] as const;

export async function targetFromArgs(a: ParsedArgs): Promise<OperateTarget> {
  try {
    const url = resolveBrokerUrl(value(a, 'url'));
    return await operateTarget(url, { vhost: value(a, 'vhost'), managementUrl: value(a, 'management-url') });
  } catch (err) {
    throw beforeAnswer(err);
  }
}

export async function connect(t: OperateTarget): Promise<ChannelModel> {
  return openConnection(t.url, { purpose: 'cli', label: 'operate' }).catch((err: unknown) => {
    throw beforeAnswer(err);
  });
}

/**
 * A failure before the command could answer (the broker unreachable, a vhost or queue that is not
 * there): the question is wrong, exit 2 (cli/exitCodes.ts). Failures during a run stay cliFailure's.
 */
function beforeAnswer(err: unknown): Error {
  const e = cliFailure(err);
  return e instanceof CliError && e.exitCode !== 2 ? new CliError(e.message, 2) : e;
}

/** Broker and input failures as CLI errors (exit 1, the message names what is wrong). */
export function cliFailure(err: unknown): Error {
  if (err instanceof OperateError) return new CliError(`${err.field}: ${err.message}`);
  if (err instanceof AmqpUrlError || err instanceof HostNotAllowedError)
    return new CliError(`--url: ${err.message}`, 2);
  if (err instanceof ManagementUrlError) return new CliError(`--management-url: ${err.message}`, 2);
  if (err instanceof BrokerConnectError || err instanceof ManagementError || err instanceof ManagementResolutionError)
    return new CliError(err.message);
  return err as Error;
}
