/**
 * `cleanup --url AMQP_URL`: the throwaway vhosts this tool left on a broker (a run killed with
 * SIGKILL, a machine that went down mid-verify), found by their marker (the tag
 * retry-studio-throwaway) or the tool's own prefixes, listed and deleted. A vhost whose run is
 * still going (its process lives on this host) is left alone. Exit 0 when nothing is left behind,
 * 1 when a delete failed, 2 for a bad option or a broker that cannot be reached.
 */
import {
  listThrowawayVhosts,
  requireManagement,
  resolveBrokerUrl,
  resolveManagement,
  type ThrowawayVhost,
} from '../../broker/index.js';
import { flag, parseArgs, value } from './args.js';
import { CliError, type CliIo } from './context.js';
import { cliFailure } from './operateArgs.js';

export const CLEANUP_USAGE =
  'cleanup --url AMQP_URL [--management-url URL] [--prefix P ...] [--dry-run] [--json]   list and delete the throwaway vhosts this tool left (by its marker and prefixes; a running one is left alone)';

export async function cleanupCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['url', 'management-url', 'prefix'], switches: ['dry-run', 'json'] });
  if (a.positionals.length > 0) throw new CliError(`usage: ${CLEANUP_USAGE}`, 2);
  if (value(a, 'url') === undefined && process.env.AMQP_URL === undefined)
    throw new CliError('--url is required (the broker to clean up), or AMQP_URL', 2);
  const prefixes = a.flags.get('prefix');
  let found: ThrowawayVhost[];
  let management;
  try {
    const url = resolveBrokerUrl(value(a, 'url'));
    const mu = value(a, 'management-url');
    management = requireManagement(await resolveManagement(url, mu !== undefined ? { managementUrl: mu } : {}));
    found = await listThrowawayVhosts(management, prefixes);
  } catch (e) {
    const f = cliFailure(e);
    throw f instanceof CliError ? new CliError(f.message, 2, { usageHint: f.exitCode === 2 }) : f;
  }
  const dry = flag(a, 'dry-run');
  const results: { vhost: string; action: 'deleted' | 'left' | 'failed' | 'would delete'; why?: string }[] = [];
  for (const v of found) {
    if (v.inUse) results.push({ vhost: v.name, action: 'left', why: 'its run is still going (its process lives)' });
    else if (dry) results.push({ vhost: v.name, action: 'would delete' });
    else
      results.push(
        await management.deleteVhost(v.name).then(
          () => ({ vhost: v.name, action: 'deleted' as const }),
          (e: unknown) => ({ vhost: v.name, action: 'failed' as const, why: (e as Error).message }),
        ),
      );
  }
  if (flag(a, 'json')) io.out(JSON.stringify({ vhosts: results }, null, 2) + '\n');
  else if (results.length === 0) io.out('no throwaway vhost left by retry-studio on this broker\n');
  else for (const r of results) io.out(`${r.action.padEnd(12)} ${r.vhost}${r.why ? `: ${r.why}` : ''}\n`);
  return results.some((r) => r.action === 'failed') ? 1 : 0;
}
