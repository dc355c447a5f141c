import { describe, expect, it } from 'vitest';
import { teamServicesDefinitions } from '@retry-studio/topology-core/testing/big';
import { importSession } from './importInWorker';
import { designLint } from '../offpage/lintView';

describe('an import session (here without a worker: the same functions)', () => {
  it('reads, prepares with progress, then gives each design its lint', async () => {
    const s = importSession();
    const r = await s.read(teamServicesDefinitions(40), 'teams.json');
    if (!('file' in r)) throw new Error(r.errors.join('; '));
    const steps: string[] = [];
    const { designs, lints } = await s.prepare(r.file.docs, { width: 900, height: 600 }, (p) => steps.push(p.step));
    expect(steps).toEqual(['scaffolding', 'laying out']);
    expect(designs).toHaveLength(1);
    expect(designs[0]!.design.name).toBe('teams');
    expect(await lints[0]!).toEqual(designLint(designs[0]!.design));
    expect((await lints[0]!).lint.length).toBeGreaterThan(0);
  });

  it('says what is wrong with a file it cannot read, by field', async () => {
    const r = await importSession().read('{"queues": [{"name": "q", "arguments": {"x-message-ttl": -1}}]}');
    expect('file' in r).toBe(false);
    expect(r.errors.join(' ')).toMatch(/x-message-ttl/);
  });
});
