/**
 * Differential testing: seeded random retry topologies (generateScenario.ts), screened on the
 * simulator for races (raceFilter.ts), run on the target through the conformance runner and
 * compared with the simulator's prediction. A disagreement is run again (one that does not repeat
 * is a race the filter missed, said so), shrunk on the broker and written as a recorded scenario.
 * Topologies run a few at a time, each in its own throwaway vhost (the runner's isolation).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { profileFromRecordedOn, type Scenario, type ScenarioProfile } from '@retry-studio/topology-core/scenario';
import type { AmqpUrl } from '../broker/amqpUrl.js';
import {
  BrokerContext,
  recordedOn,
  runScenario,
  withRecording,
  type ConformanceResult,
} from '../conformance/runConformance.js';
import { generateScenario, topologySeed } from './generateScenario.js';
import { screenScenario } from './raceFilter.js';
import { shrinkScenario } from './shrink.js';

export interface FuzzOptions {
  readonly target: 'sim' | 'broker';
  readonly url?: AmqpUrl;
  readonly managementUrl?: string;
  /** the simulator's profile; default: the broker's own (sim target: 3.10) */
  readonly profile?: ScenarioProfile;
  readonly seed: number;
  readonly count: number;
  /** topologies run at once (each in its own vhost) */
  readonly concurrency?: number;
  /** shrink each disagreement on the broker and write it to outDir (default on for the broker target) */
  readonly shrink?: boolean;
  readonly outDir?: string;
  readonly maxRunMs?: number;
}

export interface FuzzLine {
  readonly index: number;
  readonly name: string;
  readonly verdict: 'agree' | 'disagree';
  /** the topology in a few words, or what differed */
  readonly detail: string;
  readonly ms: number;
  /** generated scenarios skipped for this one (races) */
  readonly avoided: number;
  /** the shrunk, recorded scenario of a disagreement */
  readonly file?: string;
}

export interface FuzzSummary {
  readonly topologies: number;
  readonly agree: number;
  readonly disagree: number;
  /** why generated scenarios were skipped, by kind */
  readonly avoided: ReadonlyMap<string, number>;
  readonly ms: number;
}

/** tries per topology before the generator gives up finding a race-free one */
const MAX_ATTEMPTS = 200;
const SHRINK_BUDGET = 60;

function shape(s: Scenario): string {
  const t = s.topology;
  const quorum = t.queues.filter((q) => q.arguments?.['x-queue-type'] === 'quorum').length;
  const types = [...new Set(t.exchanges.map((e) => e.type))].join('/');
  const pol = t.policies?.length ? `, ${t.policies.length} polic${t.policies.length > 1 ? 'ies' : 'y'}` : '';
  return `${t.exchanges.length} exchanges (${types}), ${t.queues.length} queues (${quorum} quorum), ${t.bindings.length} bindings${pol}, ${s.consumers.length} consumers, ${s.steps.length} messages`;
}

/** the kind of a skip reason, for the summary (the text before the first colon or number) */
function avoidKind(reason: string): string {
  if (reason.includes('head-of-line')) return 'head-of-line expiry';
  if (reason.includes('too close')) return 'two sources within the race margin';
  if (reason.includes('which has a consumer')) return 'TTL racing a delivery';
  if (reason.includes('length limit')) return 'overflow racing a delivery';
  if (reason.includes('deliveries')) return 'too many deliveries';
  return 'does not settle';
}

export class Fuzzer {
  private readonly ctx: BrokerContext | undefined;
  private profile: ScenarioProfile | undefined;
  private onBroker = '';
  readonly avoided = new Map<string, number>();

  constructor(private readonly o: FuzzOptions) {
    this.ctx = o.target === 'broker' ? new BrokerContext(o.url!, o.managementUrl) : undefined;
  }

  /** the profile the simulator runs under (the broker's own, unless given) */
  async start(): Promise<ScenarioProfile> {
    if (this.ctx) {
      this.onBroker = recordedOn(await this.ctx.getProbe());
      this.profile = this.o.profile ?? profileFromRecordedOn(this.onBroker);
    } else this.profile = this.o.profile ?? '3.10';
    return this.profile;
  }

  /** A race-free scenario for topology `index`, with the simulator's prediction as `expect`. */
  generate(index: number): { scenario: Scenario; avoided: number } {
    const name = `fuzz-${this.o.seed}-${index}`;
    for (let k = 0; k < MAX_ATTEMPTS; k++) {
      const s = generateScenario(topologySeed(this.o.seed, index) + k, name);
      const r = screenScenario(s, this.profile!);
      if (r.kind === 'ok') return { scenario: { ...r.scenario, expect: r.predicted }, avoided: k };
      const kind = avoidKind(r.reason);
      this.avoided.set(kind, (this.avoided.get(kind) ?? 0) + 1);
    }
    throw new Error(`${name}: no race-free scenario in ${MAX_ATTEMPTS} tries`);
  }

  private run(s: Scenario): Promise<ConformanceResult> {
    const maxRunMs = this.o.maxRunMs ?? 20_000;
    return this.o.target === 'broker'
      ? runScenario(s, { target: 'broker', maxRunMs }, this.ctx)
      : runScenario(s, { target: 'sim', profile: this.profile!, maxRunMs });
  }

  /** the variant screened and predicted anew; undefined when the race filter avoids it */
  private predicted(s: Scenario): Scenario | undefined {
    const { expect: _e, settle_ms: _s, ...plain } = s;
    const r = screenScenario(plain as Scenario, this.profile!);
    return r.kind === 'ok' ? { ...r.scenario, expect: r.predicted } : undefined;
  }

  async one(index: number): Promise<FuzzLine> {
    const started = Date.now();
    const { scenario, avoided } = this.generate(index);
    const r = await this.run(scenario);
    const line = { index, name: scenario.name, avoided };
    if (r.match === true) return { ...line, verdict: 'agree', detail: shape(scenario), ms: Date.now() - started };
    const why = r.diff?.slice(0, 3).join('; ') ?? r.reason ?? r.error ?? 'no result';
    if (this.o.target !== 'broker' || r.match === null || r.error)
      return { ...line, verdict: 'disagree', detail: why, ms: Date.now() - started };
    const again = await this.run(scenario);
    if (again.match === true)
      return {
        ...line,
        verdict: 'disagree',
        detail: `did not repeat (a race the filter missed): ${why}`,
        ms: Date.now() - started,
      };
    if (this.o.shrink === false) return { ...line, verdict: 'disagree', detail: why, ms: Date.now() - started };
    const file = await this.shrinkAndRecord(scenario);
    const detail = file ? why : `${why} (the shrunk case did not disagree again: not recorded)`;
    return { ...line, verdict: 'disagree', detail, ms: Date.now() - started, ...(file ? { file } : {}) };
  }

  private async shrinkAndRecord(s: Scenario): Promise<string | undefined> {
    const { scenario } = await shrinkScenario(
      s,
      async (c) => {
        const p = this.predicted(c);
        if (!p) return undefined;
        const r = await this.run(p);
        return r.match === false && !r.error && r.settled !== false;
      },
      SHRINK_BUDGET,
    );
    const final = this.predicted(scenario) ?? scenario;
    const r = await this.run(final);
    if (r.match !== false || !r.observed) return undefined;
    const dir = this.o.outDir ?? 'fuzz-found';
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, `${s.name}.json`);
    const description =
      `found by pnpm fuzz (${s.description ?? s.name}), shrunk; the simulator said: ${(r.diff ?? []).slice(0, 4).join('; ')}`.slice(
        0,
        600,
      );
    const recorded = withRecording({ ...final, description }, r.observed, this.onBroker);
    await fs.writeFile(file, JSON.stringify(recorded, null, 2) + '\n');
    return file;
  }
}

/** Runs the batch, `concurrency` topologies at a time, reporting each line in index order. */
export async function runFuzz(
  o: FuzzOptions,
  onLine: (l: FuzzLine) => void,
): Promise<FuzzSummary & { profile: ScenarioProfile }> {
  const started = Date.now();
  const f = new Fuzzer(o);
  const profile = await f.start();
  const lines: (FuzzLine | undefined)[] = [];
  let next = 0;
  let printed = 0;
  const flush = (): void => {
    while (printed < lines.length && lines[printed]) onLine(lines[printed++]!);
  };
  const worker = async (): Promise<void> => {
    while (next < o.count) {
      const i = next++;
      let line: FuzzLine;
      try {
        line = await f.one(i);
      } catch (err) {
        line = {
          index: i,
          name: `fuzz-${o.seed}-${i}`,
          verdict: 'disagree',
          detail: `failed: ${(err as Error).message}`,
          ms: 0,
          avoided: 0,
        };
      }
      lines[i] = line;
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? (o.target === 'broker' ? 4 : 1)) }, worker));
  const agree = lines.filter((l) => l?.verdict === 'agree').length;
  return {
    topologies: o.count,
    agree,
    disagree: o.count - agree,
    avoided: f.avoided,
    ms: Date.now() - started,
    profile,
  };
}
