import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkScenario, ScenarioFileError } from './loadScenarios.js';

const ownDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../packages/topology-core/conformance/scenarios',
);

function fieldOf(data: unknown): string | undefined {
  try {
    checkScenario('x.json', data);
  } catch (err) {
    if (err instanceof ScenarioFileError) return err.field;
    throw err;
  }
  return undefined;
}

const minimal = {
  format: 'retry-scenario/1',
  name: 'n',
  topology: { exchanges: [], queues: [], bindings: [] },
  consumers: [],
  steps: [],
};

describe('checkScenario', () => {
  it('accepts a minimal scenario and names the wrong field otherwise', () => {
    expect(fieldOf(minimal)).toBeUndefined();
    expect(fieldOf({ ...minimal, format: 'retry-scenario/2' })).toBe('format');
    expect(fieldOf({ ...minimal, name: '' })).toBe('name');
    expect(fieldOf({ ...minimal, topology: [] })).toBe('topology');
    expect(fieldOf({ ...minimal, consumers: [{ queue: 'q', actions: [] }] })).toBe('consumers[0].actions');
    expect(fieldOf({ ...minimal, consumers: [{ queue: 'q', actions: ['ack'], prefetch: 70000 }] })).toBe(
      'consumers[0].prefetch',
    );
    expect(fieldOf({ ...minimal, consumers: [{ queue: 'q', actions: ['hold', 'nack-multiple'] }] })).toBeUndefined();
    expect(fieldOf({ ...minimal, consumers: [{ queue: 'q', actions: ['ack', 'nack-many'] }] })).toBe(
      'consumers[0].actions[1]',
    );
    expect(fieldOf({ ...minimal, steps: [{ sleep: 1 }] })).toBe('steps[0]');
    expect(fieldOf({ ...minimal, start_consumers: 'later' })).toBe('start_consumers');
  });
});

describe('our recorded scenarios', () => {
  const files = readdirSync(ownDir).filter((f) => f.endsWith('.json'));
  it('there are at least 20', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });
  it.each(files)('%s is valid retry-scenario/1, named after its file, described and recorded', (f) => {
    const data = JSON.parse(readFileSync(path.join(ownDir, f), 'utf8')) as Record<string, unknown>;
    const s = checkScenario(f, data);
    expect(s.name).toBe(f.replace(/\.json$/, ''));
    expect(typeof s.description === 'string' && s.description.length > 10).toBe(true);
    expect(s.recorded_on).toMatch(/^RabbitMQ \d+\.\d+\.\d+/);
    expect(s.expect).toBeDefined();
  });
});
