import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuList, expandCpuList, pinApart } from './cpuAffinity.js';

describe('expandCpuList', () => {
  it('reads ranges and single CPUs', () => {
    expect(expandCpuList('0-2,4')).toEqual([0, 1, 2, 4]);
    expect(expandCpuList('1')).toEqual([1]);
  });
  it('refuses what is not a CPU list', () => {
    expect(() => expandCpuList('a-b')).toThrow(/not a CPU list/);
  });
});

const twoCpus = process.platform === 'linux' && expandCpuList(cpuList(process.pid)).length >= 2;

describe.runIf(twoCpus)('pinApart', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill();
  });

  it('puts the other process on its CPUs and this one on the rest, and undoes both', () => {
    const selfBefore = cpuList(process.pid);
    child = spawn('sleep', ['30']);
    const childBefore = cpuList(child.pid!);
    const first = String(expandCpuList(selfBefore)[0]);
    const pinned = pinApart(child.pid!, first);
    try {
      expect(cpuList(child.pid!)).toBe(first);
      expect(expandCpuList(cpuList(process.pid))).not.toContain(Number(first));
      expect(pinned.self).toBe(cpuList(process.pid));
    } finally {
      pinned.restore();
    }
    expect(cpuList(child.pid!)).toBe(childBefore);
    expect(cpuList(process.pid)).toBe(selfBefore);
  });

  it('refuses to leave this process no CPU', () => {
    child = spawn('sleep', ['30']);
    expect(() => pinApart(child!.pid!, cpuList(process.pid))).toThrow(/leaves no CPU/);
  });
});
