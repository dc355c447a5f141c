import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { loadForDesign, readFields, startFields } from './rehearseFields';

const design = (id: string) => {
  const r = buildTemplate(id, {});
  if (!r.ok) throw new Error(id);
  return r.template.design;
};

describe('the Rehearse form', () => {
  const d = design('dlx-ttl-wait-queue');
  const worker = d.consumers.find((c) => c.behaviour.kind === 'worker')!.id;

  it('reads the CLI words into the core load', () => {
    const r = readFields(
      {
        ...startFields(d),
        rate: '500/s',
        duration: '1h',
        consumerOutages: `${worker}@5m+10m`,
        errorRate: '2%',
        poison: '0.1%',
        concurrency: '8',
      },
      d,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.load).toMatchObject({
      rate: 500,
      durationMs: 3_600_000,
      errorRate: 0.02,
      poison: 0.001,
      concurrency: 8,
      targets: [{ target: worker, consumerOutages: [{ startMs: 300_000, endMs: 900_000 }] }],
    });
  });

  it('names the field for bad words and for what the core rejects', () => {
    const bad = readFields({ ...startFields(d), rate: 'fast', consumerOutages: 'nobody' }, d);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.rate).toMatch(/not a rate/);
    expect(bad.errors.consumerOutages).toMatch(/TARGET@START\+LENGTH/);
    const core = readFields(
      {
        ...startFields(d),
        rate: '0',
        duration: '10m',
        poison: '150%',
        consumerOutages: `${worker}@9m+5m\nghost@1m+1m`,
      },
      d,
    );
    expect(core.ok).toBe(false);
    if (core.ok) return;
    expect(core.errors.rate).toMatch(/rate/);
    expect(core.errors.poison).toMatch(/poison|share|100/);
    expect(core.errors.consumerOutages).toMatch(/after the load's duration/);
  });

  it('gives a compared design the same outage on its own workers, and says so (never silently)', () => {
    const other = design('chained-ttl');
    const r = readFields(startFields(d), d);
    if (!r.ok) throw new Error('start fields are valid');
    const { load, notes } = loadForDesign(r.load, other, 'chained-ttl');
    const workers = other.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
    expect(load.targets?.map((t) => t.target)).toEqual(workers);
    expect(load.targets?.[0]?.consumerOutages).toEqual(r.load.targets?.[0]?.consumerOutages);
    expect(notes).toEqual([`chained-ttl has no "worker": its workers ${workers.join(', ')} stop instead`]);
  });

  it('a queue target nobody consumes gets a worker, as in the CLI, and the broker fields read sizes', () => {
    const r = readFields({ ...startFields(d), consumerOutages: 'orders.wait@1m+2m', brokerMemory: '2GiB' }, d);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.load.brokerMemoryBytes).toBe(2 * 1024 ** 3);
    const { design: withWorker, notes } = loadForDesign(r.load, d, 'open');
    expect(withWorker.consumers.some((c) => c.queue === 'orders.wait')).toBe(true);
    expect(notes[0]).toMatch(/orders\.wait has no consumer in the design: rehearsed with a worker on it/);
    const bad = readFields({ ...startFields(d), brokerMemory: '-1GiB' }, d);
    expect(bad.ok === false && bad.errors.brokerMemory).toMatch(/not a size/);
  });
});
