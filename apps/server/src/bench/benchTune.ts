/**
 * `pnpm bench:tune`: one tuning run over the stock templates (every template that runs on 3.10,
 * plugin-free) for a 1-hour profile: 500 msg/s, a 10-minute outage, 0.1% poison, 99% acked within
 * 15 minutes. Prints wall time, CPU time (the machine is shared: CPU time is what the run itself
 * cost), the candidates built, cut before rehearsal and rehearsed, and the answer.
 * Target: under 30 s. Prints one `name: value` per line.
 */
import { formatMs } from '@retry-studio/topology-core/budget';
import { paramsText, resolveTuneInput, tune } from '@retry-studio/topology-core/tune';

const input = resolveTuneInput({
  rate: 500,
  durationMs: 3_600_000,
  outageLengthsMs: [600_000],
  poison: 0.001,
  deadlineMs: 900_000,
  deadlineShare: 0.99,
  noPlugins: true,
  profile: '3.10',
});
if (!input.ok) throw new Error(JSON.stringify(input.issues));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const r = tune({ profile: input.profile, goals: input.goals, templates: input.templates });
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const best = r.recommendations[0];
const lines = {
  templates: input.templates.map((t) => t.id).join(','),
  wallMs: Math.round(wallMs),
  cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  candidates: r.stats.candidates,
  cutBeforeRehearsal: r.stats.pruned,
  rehearsals: r.stats.rehearsals,
  feasible: r.feasible,
  best: best ? `${best.strategy} ${paramsText(best.params)}` : 'none',
  bestP99: best ? formatMs(best.metrics.delayMs.p99) : '-',
  target: 'under 30000 ms',
};
for (const [k, v] of Object.entries(lines)) process.stdout.write(`${k}: ${v}\n`);
