/** Runs scenarios on a target and compares with `expect`; optionally records the broker's trace. */
import { promises as fs } from 'node:fs';
import {
  compareObserved,
  type Observed,
  type Scenario,
  type ScenarioProfile,
} from '@retry-studio/topology-core/scenario';
import type { AmqpUrl } from '../broker/amqpUrl.js';
import type { ManagementClient } from '../broker/management.js';
import { probeBrokerWithManagement, type BrokerProbe } from '../broker/probe.js';
import { requireManagement } from '../broker/resolveManagement.js';
import { loadScenarioFile } from './loadScenarios.js';
import { runBrokerScenario } from './runBrokerScenario.js';
import { runSimScenario } from './runSimScenario.js';
import { DEFAULT_MAX_RUN_MS, ScenarioUnsettledError } from './unsettled.js';

export type ConformanceTarget = 'sim' | 'broker';

export interface ConformanceResult {
  readonly scenario: string;
  readonly target: ConformanceTarget;
  readonly match: boolean | null;
  /** the sim target: the profile it ran under (from recorded_on unless --profile) */
  readonly profile?: ScenarioProfile;
  /** false when the run was still busy at the time bound (reason: "did not settle in N ms") */
  readonly settled?: false;
  readonly observed?: Observed;
  /** the core's readable diff lines (compareObserved), null when it matches or nothing was compared */
  readonly diff: readonly string[] | null;
  readonly file?: string;
  readonly reason?: string;
  readonly error?: string;
  readonly recorded?: boolean;
}

export interface ConformanceOptions {
  readonly target: ConformanceTarget;
  readonly url?: AmqpUrl;
  readonly record?: boolean;
  /** the broker's management API (`--management-url`); default: RETRY_STUDIO_MANAGEMENT_URL, else discovered */
  readonly managementUrl?: string;
  /** the sim target's profile for every file (default: each file's recorded_on) */
  readonly profile?: ScenarioProfile;
  /** the bound for one scenario run (default DEFAULT_MAX_RUN_MS) */
  readonly maxRunMs?: number;
}

/** A per-run broker context (one probe for all scenarios). */
export class BrokerContext {
  private probe: BrokerProbe | undefined;
  /** this broker's own management API (verified by the probe), when it has one */
  management: ManagementClient | undefined;
  constructor(
    readonly url: AmqpUrl,
    readonly managementUrl?: string,
  ) {}
  async getProbe(): Promise<BrokerProbe> {
    if (this.probe) return this.probe;
    const { probe, resolution } = await probeBrokerWithManagement(
      this.url,
      this.managementUrl ? { managementUrl: this.managementUrl, givenAs: '--management-url' } : {},
    );
    // a management URL the user gave must be this broker's; a discovered one is optional
    if (resolution.kind === 'verified' || resolution.source !== 'discovered')
      this.management = requireManagement(resolution);
    return (this.probe = probe);
  }
}

export function recordedOn(p: BrokerProbe): string {
  return `${p.product} ${p.version}`;
}

/** The scenario with `expect` replaced by what was observed, keys in the shared files' order. */
export function withRecording(s: Scenario, observed: Observed, on: string): Scenario {
  const { expect: _old, recorded_on: _on, ...rest } = s;
  return { ...rest, expect: observed, recorded_on: on } as Scenario;
}

export async function runScenario(
  s: Scenario,
  o: ConformanceOptions,
  ctx?: BrokerContext,
  file?: string,
): Promise<ConformanceResult> {
  let base: Pick<ConformanceResult, 'scenario' | 'target' | 'file' | 'profile'> = {
    scenario: s.name,
    target: o.target,
    ...(file ? { file } : {}),
  };
  const maxRunMs = o.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  try {
    let observed: Observed;
    if (o.target === 'sim') {
      const r = runSimScenario(s, { ...(o.profile ? { profile: o.profile } : {}), maxRunMs });
      if (r.kind === 'unavailable') return { ...base, match: null, diff: null, reason: r.reason };
      base = { ...base, profile: r.profile };
      if (r.kind === 'unsettled') return { ...base, match: false, settled: false, diff: null, reason: r.reason };
      observed = r.observed;
    } else {
      if (!ctx) throw new Error('the broker target needs a broker context');
      const probe = await ctx.getProbe();
      const r = await runBrokerScenario(s, { url: ctx.url, probe, management: ctx.management, maxRunMs });
      if (r.kind === 'unsupported') return { ...base, match: null, diff: null, reason: r.reason };
      observed = r.observed;
      if (o.record && file) {
        const next = withRecording(s, observed, recordedOn(probe));
        await fs.writeFile(file, JSON.stringify(next, null, 2) + '\n');
        return { ...base, match: true, observed, diff: null, recorded: true };
      }
    }
    if (!s.expect)
      return {
        ...base,
        match: false,
        observed,
        diff: null,
        reason: 'the scenario has no expect block (record it with --target broker --record)',
      };
    const c = compareObserved(observed, s.expect);
    return { ...base, match: c.match, observed, diff: c.match ? null : c.diff };
  } catch (err) {
    if (err instanceof ScenarioUnsettledError)
      return { ...base, match: false, settled: false, diff: null, reason: err.message };
    return { ...base, match: false, diff: null, error: (err as Error).message };
  }
}

export async function runFiles(
  files: readonly string[],
  o: ConformanceOptions,
  onResult?: (r: ConformanceResult) => void,
): Promise<ConformanceResult[]> {
  const ctx = o.target === 'broker' ? new BrokerContext(o.url!, o.managementUrl) : undefined;
  const results: ConformanceResult[] = [];
  for (const f of files) {
    let r: ConformanceResult;
    try {
      const { scenario } = await loadScenarioFile(f);
      r = await runScenario(scenario, o, ctx, f);
    } catch (err) {
      r = { scenario: f, target: o.target, match: false, diff: null, file: f, error: (err as Error).message };
    }
    results.push(r);
    onResult?.(r);
  }
  return results;
}
