import { describe, expect, it } from 'vitest';
import { fig, uniformCalibration } from '../../testing/calibrationFixtures.js';
import { ceilingsOf, heldCost, messageCost } from './costModel.js';
import { readCalibration } from './readCalibration.js';
import { calibrationFor, SHIPPED_CALIBRATIONS } from './shipped.js';
import { storageOf } from './queueStorage.js';
import type { AmqpTable } from '../model/definitions.js';

const paths = (v: unknown): string[] => {
  const r = readCalibration(v);
  return r.ok ? [] : r.issues.map((i) => i.path);
};

describe('readCalibration: a calibration file, or what is wrong with it by field', () => {
  it('the shipped calibrations read cleanly, one per version measured, each figure with its spread', () => {
    expect(SHIPPED_CALIBRATIONS.map((c) => c.broker.version)).toEqual(['3.10.8', '4.3.6']);
    for (const c of SHIPPED_CALIBRATIONS) {
      expect(readCalibration(c).ok).toBe(true);
      for (const row of c.footprint) expect(row.ramBytesPerMessage.min).toBeLessThanOrEqual(row.ramBytesPerMessage.max);
      expect(c.ceilings.map((x) => x.storage).sort()).toEqual(['classic', 'quorum']);
    }
  });

  it('not a calibration, a negative memory, a ceiling of 0: each named', () => {
    expect(paths({ rate: 5 })).toEqual(['format']);
    expect(paths('x')).toEqual(['']);
    const good = uniformCalibration();
    expect(paths(good)).toEqual([]);
    const negative = {
      ...good,
      footprint: [{ ...good.footprint[0]!, ramBytesPerMessage: { value: -5, min: -5, max: 1, runs: 3 } }],
    };
    expect(paths(negative)).toEqual(['footprint[0].ramBytesPerMessage.value', 'footprint[0].ramBytesPerMessage.min']);
    const zero = { ...good, ceilings: [{ ...good.ceilings[0]!, requeuePerSec: fig(0) }] };
    const r = readCalibration(zero);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]).toMatchObject({ path: 'ceilings[0].requeuePerSec.value', code: 'ceiling-zero' });
  });
});

describe('the cost model', () => {
  const cal = uniformCalibration({ ramBytes: 600, bodyInRam: 1, diskBytes: 100 });

  it('reads a measured body size, interpolates between two and goes on past the largest', () => {
    expect(messageCost(cal, 'classic', false, 1024)).toMatchObject({ ramBytes: 1624, diskBytes: 1124 });
    expect(messageCost(cal, 'classic', false, 1024)!.basis).toMatch(/^measured/);
    const mid = messageCost(cal, 'classic', false, 4096)!;
    expect(mid.ramBytes).toBeCloseTo(600 + 4096, 6);
    expect(mid.basis).toMatch(/^interpolated/);
    expect(messageCost(cal, 'classic', false, 65_536)!.ramBytes).toBeCloseTo(600 + 65_536, 6);
    expect(messageCost(cal, 'classic', false, 65_536)!.basis).toMatch(/^extrapolated/);
  });

  it('a storage not measured falls back to the nearest and says so', () => {
    const c = messageCost(cal, 'classic-lazy', true, 1024)!;
    expect(c.ramBytes).toBe(1624);
    expect(c.basis).toMatch(/classic figures \(no classic-lazy measured\)/);
    expect(ceilingsOf(cal, 'classic-v2')?.storage).toBe('classic');
  });

  it('under a steady flow the node holds more per resident message than settled queues: the rest, said; the queue keeps its settled figure', () => {
    const flowing = (ram: number, storage: 'classic' | 'quorum' = 'classic', base = cal) => ({
      ...base,
      flow: [{ storage, bodyBytes: 1024, ratePerSecond: 1000, messages: 20_000, ramBytesPerMessage: fig(ram) }],
    });
    // 1624 B settled at 1 KiB, 4872 B under the flow: 3248 B more, twice the settled figure at every body size
    const c = messageCost(flowing(4872), 'classic', false, 1024)!;
    expect(c.ramBytes).toBe(1624);
    expect(c.flowRamBytes).toBeCloseTo(3248, 6);
    expect(messageCost(flowing(4872), 'classic', false, 16384)!.flowRamBytes).toBeCloseTo(2 * (600 + 16384), 6);
    expect(c.diskBytes).toBe(1124);
    expect(c.basis).toMatch(/under a steady flow the node holds 3248 B more a message at 1024 B bodies/);
    // a flow that held no more than the settled queue adds nothing; nor does one of another kind
    expect(messageCost(flowing(1000), 'classic', false, 1024)!.flowRamBytes).toBe(0);
    expect(messageCost(flowing(4872, 'quorum'), 'classic', false, 1024)!.flowRamBytes).toBe(0);
    // a quorum queue's settled figure is its own RAM and its WAL's; what the flow's consumption left is counted apart
    const q = uniformCalibration({ ramBytes: 100, walRamBytes: 900, consumedBytes: 500 });
    const qc = messageCost(flowing(2500, 'quorum', q), 'quorum', false, 1024)!;
    expect([qc.ramBytes, qc.walRamBytes, qc.consumedBytes, qc.flowRamBytes]).toEqual([100, 900, 500, 1000]);
    // a queue that keeps nothing in RAM when settled (4.x classic v2): what the flow holds, as measured
    const v2 = uniformCalibration({ version: '4.3.6' });
    expect(messageCost(flowing(550, 'classic', v2), 'classic', false, 16384)!.flowRamBytes).toBe(550);
  });

  it('a flow row is checked by field like the others', () => {
    const good = uniformCalibration();
    const row = {
      storage: 'classic',
      bodyBytes: 1024,
      ratePerSecond: 0,
      messages: 20_000,
      ramBytesPerMessage: fig(-1),
    };
    expect(paths({ ...good, flow: [row] })).toEqual([
      'flow[0].ratePerSecond',
      'flow[0].ramBytesPerMessage.value',
      'flow[0].ramBytesPerMessage.min',
      'flow[0].ramBytesPerMessage.max',
    ]);
    expect(paths({ ...good, flow: 'x' })).toEqual(['flow']);
  });

  it('a delayed-message exchange without the plugin to measure is an estimate, said', () => {
    const h = heldCost(cal, 1024);
    expect(h.ramBytes).toBeGreaterThanOrEqual(1024);
    expect(h.basis).toMatch(/^estimated/);
  });

  it('another version than the rules: said, and used', () => {
    const given = uniformCalibration({ version: '4.3.6' });
    expect(calibrationFor('3.10', given).notes[0]).toMatch(
      /measured on RabbitMQ 4\.3\.6, the rules are RabbitMQ 3\.10's/,
    );
    expect(calibrationFor('4.3', given).notes).toEqual([]);
    expect(calibrationFor('4.x').calibration.broker.version).toBe('4.3.6');
    expect(calibrationFor('4.x').notes[0]).toMatch(/no calibration of RabbitMQ 4\.0-4\.2 ships/);
  });

  it('a queue keeps its messages as its version does: classic v1 on 3.x unless v2 or lazy, v2 on 4.x', () => {
    const q = (args: AmqpTable) => ({ name: 'q', durable: true, auto_delete: false, arguments: args });
    expect(storageOf(q({}), [], '3.10')).toBe('classic');
    expect(storageOf(q({ 'x-queue-version': 2 }), [], '3.10')).toBe('classic-v2');
    expect(storageOf(q({ 'x-queue-mode': 'lazy' }), [], '3.10')).toBe('classic-lazy');
    expect(storageOf(q({ 'x-queue-mode': 'lazy' }), [], '4.3')).toBe('classic');
    expect(storageOf(q({ 'x-queue-type': 'quorum' }), [], '4.3')).toBe('quorum');
  });
});
