/**
 * `dlq browse` and `dlq redrive`: the server's operate engine from the command line. Both say
 * first what reading the queue changes; `redrive` prints progress on stderr and cancels cleanly
 * on Ctrl-C (what is not yet confirmed goes back to the queue).
 */
import { readUserFile } from './readUserFile.js';
import { resolve } from 'node:path';
import {
  checkCanaryOptions,
  DEFAULT_CANARY_WAIT_MS,
  destinationLabel,
  parseJsonPatch,
  redriveShortfall,
  parseMaxRefail,
  parseRedriveFilter,
  parseRedriveTarget,
  parseSetHeader,
  type CanaryOptions,
  type CanaryProgress,
  type CauseGroup,
  type DeadLetterMessage,
  type RedriveEdit,
  type RedrivePlan,
} from '@retry-studio/topology-core/operate';
import { startCanaryRedrive } from '../../operate/canaryRedrive.js';
import { browseQueue, MAX_BROWSE } from '../../operate/browse.js';
import { dryRunRedrive, startRedrive, type RedriveRequest } from '../../operate/redrive.js';
import type { RedriveProgress } from '../../operate/redriveJob.js';
import { flag, intValue, parseArgs, value } from './args.js';
import { CliError, type CliIo } from './context.js';
import { TARGET_FLAGS, cliFailure, connect, targetFromArgs } from './operateArgs.js';
import { MIN_RATE_PER_SECOND, MIN_RATE_TEXT } from '@retry-studio/contract';

export const DLQ_USAGE = `dlq browse --url AMQP_URL --queue Q [--vhost V] [--management-url URL] [--limit N] [--insist] [--json]
       dlq redrive --url AMQP_URL --queue Q [--to original|EXCHANGE[:ROUTING_KEY]] [--filter cause=KEY|queue=Q|reason=R|header=NAME[=VALUE]|message-id=ID] [--limit N] [--rate N] [--dry-run] [--insist] [--json]
         [--canary N [--canary-wait-ms T] [--max-refail R|RATIO|P%] [--canary-from-batch K]] [--set-header NAME=VALUE ...] [--patch FILE]`;

const when = (s: number | undefined): string => (s === undefined ? '?' : new Date(s * 1000).toISOString());

function printMessage(io: CliIo, m: DeadLetterMessage): void {
  const d = m.xDeath.at(-1);
  io.out(
    `#${m.seq}${m.redelivered ? ' (redelivered)' : ''} ${m.bodyBytes} bytes: ${JSON.stringify(m.body.slice(0, 120))}\n`,
  );
  if (d)
    io.out(
      `    first death: ${d.queue} ${d.reason} at ${when(d.time)} (via ${d.exchange || '(default)'} ${d['routing-keys'].join(',')})\n`,
    );
  for (const x of m.xDeath)
    io.out(
      `    x-death: ${x.queue} ${x.reason} count ${x.count}${x.time !== undefined ? ` at ${when(x.time)}` : ''}\n`,
    );
  const h = Object.entries(m.headers).filter(([k]) => !k.startsWith('x-first-death') && !k.startsWith('x-last-death'));
  if (h.length) io.out(`    headers: ${h.map(([k, v]) => `${k}=${JSON.stringify(v).slice(0, 80)}`).join(' ')}\n`);
}

function printGroups(io: CliIo, groups: readonly CauseGroup[]): void {
  io.out(`by cause (first-death queue | reason | exception):\n`);
  for (const g of groups)
    io.out(
      `  ${String(g.count).padStart(6)}  ${g.key}${g.firstTime !== undefined ? `  (${when(g.firstTime)} .. ${when(g.lastTime)})` : ''}\n`,
    );
}

async function browse(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: [...TARGET_FLAGS, 'queue', 'limit'], switches: ['json', 'insist'] });
  const queue = value(a, 'queue');
  if (!queue) throw new CliError(`--queue is required\nusage: ${DLQ_USAGE}`, 2);
  const limit = intValue(a, 'limit', 1, MAX_BROWSE) ?? 100;
  const t = await targetFromArgs(a);
  const conn = await connect(t);
  try {
    const r = await browseQueue(t, conn, { queue, limit, insist: flag(a, 'insist') }).catch((e: unknown) => {
      throw cliFailure(e);
    });
    if (flag(a, 'json')) {
      io.out(JSON.stringify(r, null, 2) + '\n');
      return 0;
    }
    io.err(`note: ${r.effect.message}\n`);
    io.out(
      `${r.queue} (${r.queueType}, vhost '${r.vhost}', RabbitMQ ${r.brokerVersion}): ${r.depth} message(s); showing ${r.messages.length} (${r.elapsedMs} ms)\n`,
    );
    if (r.messages.length === 0) return 0;
    printGroups(io, r.groups);
    for (const m of r.messages) printMessage(io, m);
    return 0;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

function printPlan(io: CliIo, plan: RedrivePlan): void {
  io.out(
    `dry run: ${plan.moved} would move, ${plan.items.length - plan.moved} would stay (skipped), ${plan.filteredOut} filtered out; nothing changed\n`,
  );
  for (const [d, n] of Object.entries(plan.byDestination)) io.out(`  ${String(n).padStart(6)} -> ${d}\n`);
  for (const [r, n] of Object.entries(plan.skipped)) io.out(`  ${String(n).padStart(6)} stay: ${r}\n`);
  for (const i of plan.items.slice(0, 20))
    io.out(
      `  #${i.seq} ${i.decision.kind === 'move' ? `-> ${destinationLabel(i.decision)} (${i.decision.via})` : `stays: ${i.decision.reason}`}\n`,
    );
}

function printProgress(io: CliIo, p: RedriveProgress): void {
  io.out(
    `${p.status}: moved ${p.moved} of ${p.before}, left ${p.left} (filtered out ${p.filteredOut}) in ${p.elapsedMs} ms\n`,
  );
  for (const [d, n] of Object.entries(p.byDestination)) io.out(`  ${String(n).padStart(6)} -> ${d}\n`);
  for (const [r, n] of Object.entries(p.skipped)) io.out(`  ${String(n).padStart(6)} stay: ${r}\n`);
  if (p.reconnects > 0 || p.lastLoss)
    io.out(
      `connection: ${p.reconnects} reconnect(s); last loss: ${p.lastLoss ?? 'none'}; ${p.deduplicated} redelivered original(s) acked without a second copy\n`,
    );
  if (p.duplicatesPossible > 0) io.out(`${p.duplicatesPossible} possible duplicates: copies in flight at the crash\n`);
  if (p.stoppedEarly) io.out(`stopped early: ${p.stoppedEarly}\n`);
  if (p.error) io.out(`error: ${p.error}\n`);
}

function printCanary(io: CliIo, p: CanaryProgress): void {
  io.out(
    `${p.status}: canary re-drive of '${p.queue}', ${p.moved} of ${p.selection} moved (${p.through} through, ${p.back} back, ${p.waiting} waiting), ${p.untouched} untouched, ${p.batches.length} batch(es) in ${p.elapsedMs} ms; returns seen by ${p.watchedBy === 'tap' ? 'a tap on the dead-letter bindings' : 'queue depth'}\n`,
  );
  for (const b of p.batches)
    io.out(
      `  batch ${b.index + 1}: ${b.moved}/${b.size} moved, ${b.through} through, ${b.back} back, ${b.waiting} waiting${b.verdictMs !== undefined ? `, verdict after ${b.verdictMs} ms` : ''}: ${b.verdict ? `${b.verdict.kind} (${b.verdict.basis}) ${b.verdict.reason}` : 'no verdict'}\n`,
    );
  for (const r of p.returned)
    io.out(
      `  back (batch ${r.batch}): ${r.messageId ?? JSON.stringify(r.body.slice(0, 60))} died again in ${r.queue}: ${r.reason} (re-driven ${r.redriveCount}x)\n`,
    );
  if (p.stopReason) io.out(`${p.status === 'stopped' ? 'stopped' : 'end'}: ${p.stopReason}\n`);
  if (p.error) io.out(`error: ${p.error}\n`);
}

/** `--canary N [--canary-wait-ms T] [--max-refail R]`; errors name the option (exit 2) */
function canaryFromArgs(a: ReturnType<typeof parseArgs>): CanaryOptions | undefined {
  const n = value(a, 'canary');
  if (n === undefined) {
    for (const k of ['canary-wait-ms', 'max-refail', 'canary-from-batch'])
      if (value(a, k) !== undefined) throw new CliError(`--${k} needs --canary N`, 2);
    return undefined;
  }
  const num = (k: string, s: string): number => {
    if (!/^-?[0-9]+$/.test(s)) throw new CliError(`--${k} must be an integer, got ${JSON.stringify(s)}`, 2);
    return Number(s);
  };
  const w = value(a, 'canary-wait-ms');
  const mr = parseMaxRefail(value(a, 'max-refail') ?? '0');
  if (!mr.ok) throw new CliError(mr.message, 2);
  const from = value(a, 'canary-from-batch');
  const o: CanaryOptions = {
    size: num('canary', n),
    waitMs: w === undefined ? DEFAULT_CANARY_WAIT_MS : num('canary-wait-ms', w),
    maxRefail: mr.maxRefail,
    ...(from !== undefined ? { fromBatch: num('canary-from-batch', from) - 1 } : {}),
  };
  const bad = checkCanaryOptions(o, undefined)[0];
  if (bad) throw new CliError(bad.message, 2);
  return o;
}

/** `--set-header NAME=VALUE` (repeatable) and `--patch FILE` (an RFC 6902 JSON patch) */
async function editFromArgs(a: ReturnType<typeof parseArgs>, cwd: string): Promise<RedriveEdit | undefined> {
  const setHeaders: Record<string, string> = {};
  for (const s of a.flags.get('set-header') ?? []) {
    const h = parseSetHeader(s);
    if (!h.ok) throw new CliError(h.message, 2);
    setHeaders[h.name] = h.value;
  }
  const file = value(a, 'patch');
  let patch: RedriveEdit['patch'];
  if (file !== undefined) {
    const text = await readUserFile(resolve(cwd, file)).catch((e: unknown) => {
      throw new CliError(`--patch ${file}: ${(e as Error).message}`, 2);
    });
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new CliError(`--patch ${file}: not JSON (${(e as Error).message})`, 2);
    }
    const p = parseJsonPatch(doc);
    if (!p.ok) throw new CliError(`--patch ${file}${p.path}: ${p.message}`, 2);
    patch = p.patch;
  }
  if (!patch && Object.keys(setHeaders).length === 0) return undefined;
  return { ...(patch ? { patch } : {}), ...(Object.keys(setHeaders).length ? { setHeaders } : {}) };
}

async function redrive(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: [
      ...TARGET_FLAGS,
      'queue',
      'to',
      'filter',
      'limit',
      'rate',
      'canary',
      'canary-wait-ms',
      'max-refail',
      'canary-from-batch',
      'set-header',
      'patch',
    ],
    switches: ['json', 'dry-run', 'insist'],
  });
  const queue = value(a, 'queue');
  if (!queue) throw new CliError(`--queue is required\nusage: ${DLQ_USAGE}`, 2);
  const to = parseRedriveTarget(value(a, 'to') ?? 'original');
  if (!to.ok) throw new CliError(`--to: ${to.message}`, 2);
  const fs = value(a, 'filter');
  const filter = fs !== undefined ? parseRedriveFilter(fs) : undefined;
  if (filter && !filter.ok) throw new CliError(`--filter: ${filter.message}`, 2);
  const limit = intValue(a, 'limit', 1, 10_000_000);
  const rs = value(a, 'rate');
  const rate = rs === undefined ? undefined : Number(rs);
  if (rate !== undefined && !(rate > 0 && Number.isFinite(rate)))
    throw new CliError(`--rate must be a positive number of messages per second, got ${JSON.stringify(rs)}`, 2);
  if (rate !== undefined && rate < MIN_RATE_PER_SECOND)
    throw new CliError(`--rate must be at least ${MIN_RATE_TEXT}, got ${rs}`, 2);
  const canary = canaryFromArgs(a);
  const edit = await editFromArgs(a, io.cwd);
  const r: RedriveRequest = {
    queue,
    ...(edit ? { edit } : {}),
    target: to.target,
    ...(filter?.ok ? { filter: filter.filter } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(rate !== undefined ? { ratePerSecond: rate } : {}),
    ...(flag(a, 'insist') ? { insist: true } : {}),
  };
  const t = await targetFromArgs(a);
  const conn = await connect(t);
  try {
    if (flag(a, 'dry-run')) {
      const { browse, plan, bounce } = await dryRunRedrive(t, conn, r).catch((e: unknown) => {
        throw cliFailure(e);
      });
      if (flag(a, 'json'))
        io.out(
          JSON.stringify({ dryRun: true, queue, depth: browse.depth, effect: browse.effect, plan, bounce }, null, 2) +
            '\n',
        );
      else {
        io.err(`note: reading for the dry run: ${browse.effect.message}\n`);
        printPlan(io, plan);
        for (const w of bounce) io.out(`warning: ${w.message}\n`);
        io.out(`${plan.delivery}\n${plan.xDeathNote}\n`);
      }
      return 0;
    }
    if (canary) {
      const cj = await startCanaryRedrive(t, conn, r, canary).catch((e: unknown) => {
        throw cliFailure(e);
      });
      const onSigint = (): void => void cj.cancel();
      process.once('SIGINT', onSigint);
      const tick = setInterval(() => {
        const p = cj.progress();
        io.err(
          `\r${p.status} batch ${p.batch} ${p.phase}: ${p.moved}/${p.selection} moved, ${p.through} through, ${p.back} back, ${p.waiting} waiting`,
        );
      }, 500);
      const p = await cj.done;
      clearInterval(tick);
      process.off('SIGINT', onSigint);
      if (flag(a, 'json')) io.out(JSON.stringify(p, null, 2) + '\n');
      else {
        io.err('\n');
        printCanary(io, p);
      }
      return p.status === 'done' ? 0 : 1;
    }
    const job = await startRedrive(t, r).catch((e: unknown) => {
      throw cliFailure(e);
    });
    const onSigint = (): void => void job.cancel();
    process.once('SIGINT', onSigint);
    const tick = setInterval(() => {
      const p = job.progress();
      io.err(`\r${p.status} ${p.moved}/${p.before} moved, ${p.left} left`);
    }, 500);
    const p = await job.done;
    clearInterval(tick);
    process.off('SIGINT', onSigint);
    if (flag(a, 'json')) io.out(JSON.stringify(p, null, 2) + '\n');
    else {
      io.err('\n');
      printProgress(io, p);
      for (const n of p.notes) io.out(`note: ${n}\n`);
    }
    // moved fewer than it selected (a destination missing or unroutable): not a success
    const shortfall = redriveShortfall(p, limit);
    if (shortfall.short) io.err(`error: ${shortfall.why}\n`);
    return p.status === 'done' && !shortfall.short ? 0 : 1;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

export async function dlqCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'browse') return browse(rest, io);
  if (sub === 'redrive') return redrive(rest, io);
  throw new CliError(`usage: ${DLQ_USAGE}`, 2);
}
