/** Runs the core simulator on a design (the web never simulates anything itself). */
import type { Design, FailureModel, SimEvent } from '@retry-studio/topology-core';
import { coreFn } from '../core/bridge';

export interface RunOptions {
  messages: number;
  failure: FailureModel;
  seed: number;
}

export type RunResult = { events: SimEvent[]; truncated: boolean; endTime: number } | { error: string };

type DesignToSimulation = (d: Design, o: { messages: number; failure: FailureModel; seed: number }) => unknown;
type Simulate = (input: unknown) => { events: SimEvent[]; truncated: boolean; endTime: number };

export function runDesignSimulation(design: Design, opts: RunOptions): RunResult {
  const toSim = coreFn<DesignToSimulation>('designToSimulation');
  const simulate = coreFn<Simulate>('simulate');
  if (!toSim || !simulate) return { error: 'The simulator is not available in this build of topology-core yet.' };
  if (!design.publishers.length) return { error: 'Add a publisher: the simulation publishes test messages through it.' };
  try {
    const input = toSim(design, { messages: opts.messages, failure: opts.failure, seed: opts.seed });
    const bad = input as { ok?: boolean; errors?: Array<{ path: string; message: string }> };
    if (bad && bad.ok === false && bad.errors) return { error: bad.errors.map((e) => `${e.path}: ${e.message}`).join('\n') };
    const simInput = (bad as { input?: unknown }).input ?? input;
    const r = simulate({ ...(simInput as object), emitDepth: false, maxEvents: 200_000 });
    return { events: r.events, truncated: r.truncated, endTime: r.endTime };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
