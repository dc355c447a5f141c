/** Reads retry-scenario/1 files and folders (folders: every *.json in them, sorted, recursively). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SCENARIO_FORMAT, type Scenario } from '@retry-studio/topology-core/scenario';

export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';
  constructor(
    readonly file: string,
    readonly field: string,
    message: string,
  ) {
    super(`${file}: ${field}: ${message}`);
  }
}

export interface LoadedScenario {
  readonly file: string;
  readonly scenario: Scenario;
}

/** Expands files and folders into the list of scenario files, in a stable order. */
export async function expandScenarioPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const st = await fs.stat(p).catch(() => undefined);
    if (!st) throw new ScenarioFileError(p, 'path', 'no such file or folder');
    if (st.isDirectory()) {
      const entries = (await fs.readdir(p)).sort();
      const files: string[] = [];
      const dirs: string[] = [];
      for (const e of entries) {
        const full = path.join(p, e);
        const s = await fs.stat(full);
        if (s.isDirectory()) dirs.push(full);
        else if (e.endsWith('.json')) files.push(full);
      }
      out.push(...files, ...(await expandScenarioPaths(dirs)));
    } else {
      out.push(p);
    }
  }
  return out;
}

/** the format's actions, and this runner's additions (hold and the multiple settlements) */
const ACTION_NAMES: readonly string[] = [
  'ack',
  'reject',
  'requeue',
  'reject-requeue',
  'hold',
  'ack-multiple',
  'nack-multiple',
  'nack-multiple-requeue',
];

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks the shape this runner relies on, naming the field that is wrong. */
export function checkScenario(file: string, data: unknown): Scenario {
  if (!isObj(data)) throw new ScenarioFileError(file, '(root)', 'must be a JSON object');
  if (data.format !== SCENARIO_FORMAT) throw new ScenarioFileError(file, 'format', `must be "${SCENARIO_FORMAT}"`);
  if (typeof data.name !== 'string' || data.name === '')
    throw new ScenarioFileError(file, 'name', 'must be a non-empty string');
  const t = data.topology;
  if (!isObj(t)) throw new ScenarioFileError(file, 'topology', 'must be an object');
  for (const k of ['exchanges', 'queues', 'bindings'] as const) {
    if (t[k] !== undefined && !Array.isArray(t[k]))
      throw new ScenarioFileError(file, `topology.${k}`, 'must be an array');
  }
  if (!Array.isArray(data.consumers ?? [])) throw new ScenarioFileError(file, 'consumers', 'must be an array');
  ((data.consumers as unknown[] | undefined) ?? []).forEach((c, i) => {
    if (!isObj(c) || typeof c.queue !== 'string')
      throw new ScenarioFileError(file, `consumers[${i}].queue`, 'must be a string');
    if (!Array.isArray(c.actions) || c.actions.length === 0)
      throw new ScenarioFileError(file, `consumers[${i}].actions`, 'must be a non-empty array');
    c.actions.forEach((a, j) => {
      if (typeof a === 'string' ? ACTION_NAMES.includes(a) : isObj(a) && isObj(a.republish)) return;
      throw new ScenarioFileError(
        file,
        `consumers[${i}].actions[${j}]`,
        `must be one of ${ACTION_NAMES.map((n) => `"${n}"`).join(', ')} or {"republish": {...}}`,
      );
    });
    if (
      c.prefetch !== undefined &&
      (!Number.isInteger(c.prefetch) || (c.prefetch as number) < 0 || (c.prefetch as number) > 65535)
    ) {
      throw new ScenarioFileError(file, `consumers[${i}].prefetch`, 'must be an integer 0..65535');
    }
    const off = c.offset;
    if (
      off !== undefined &&
      !(
        off === 'first' ||
        off === 'last' ||
        off === 'next' ||
        (typeof off === 'number' && Number.isInteger(off) && off >= 0)
      )
    ) {
      throw new ScenarioFileError(
        file,
        `consumers[${i}].offset`,
        'must be "first", "last", "next" or a non-negative integer (a stream offset)',
      );
    }
  });
  if (!Array.isArray(data.steps)) throw new ScenarioFileError(file, 'steps', 'must be an array');
  data.steps.forEach((s, i) => {
    if (isObj(s) && typeof s.wait_ms === 'number') return;
    if (isObj(s) && isObj(s.publish) && typeof s.publish.exchange === 'string' && typeof s.publish.body === 'string')
      return;
    throw new ScenarioFileError(
      file,
      `steps[${i}]`,
      'must be {"publish": {exchange, routing_key, body}} or {"wait_ms": N}',
    );
  });
  if (data.start_consumers !== undefined && data.start_consumers !== 'before' && data.start_consumers !== 'after') {
    throw new ScenarioFileError(file, 'start_consumers', 'must be "before" or "after"');
  }
  return {
    ...(data as unknown as Scenario),
    topology: { exchanges: [], queues: [], bindings: [], ...(t as object) } as Scenario['topology'],
    consumers: (data.consumers as Scenario['consumers'] | undefined) ?? [],
  };
}

export async function loadScenarioFile(file: string): Promise<LoadedScenario> {
  const text = await fs.readFile(file, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ScenarioFileError(file, '(json)', (err as Error).message);
  }
  return { file, scenario: checkScenario(file, data) };
}
