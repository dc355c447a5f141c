import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** the CPUs a process may run on, as Linux lists them (`0-1`, `0,2`) */
export function cpuList(pid: number | string): string {
  const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no Cpus_allowed_list for process ${pid}`);
  return m[1]!;
}

/** every CPU in a list such as `0-2,4` */
export function expandCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a) || (b !== undefined && !Number.isInteger(b))) throw new Error(`not a CPU list: '${list}'`);
    for (let c = a!; c <= (b ?? a!); c++) cpus.push(c);
  }
  return cpus;
}

/** every thread of a process onto these CPUs (util-linux `taskset`) */
export function setCpuList(pid: number | string, list: string): void {
  execFileSync('taskset', ['-a', '-cp', list, String(pid)], { stdio: 'ignore' });
}

/**
 * The broker on `brokerCpus` and this process on the CPUs left, as if the client ran on
 * another host than the broker: what a client then competes for is the broker's CPU only,
 * as a shovel inside the broker does. Returns what undoes it.
 */
export function pinApart(brokerPid: number | string, brokerCpus: string): { self: string; restore: () => void } {
  const all = expandCpuList(cpuList(process.pid));
  const broker = new Set(expandCpuList(brokerCpus));
  const rest = all.filter((c) => !broker.has(c));
  if (rest.length === 0)
    throw new Error(`--pin-broker ${brokerCpus} leaves no CPU for this process (it may use ${all.join(',')})`);
  const before = { broker: cpuList(brokerPid), self: cpuList(process.pid) };
  setCpuList(brokerPid, brokerCpus);
  setCpuList(process.pid, rest.join(','));
  return {
    self: rest.join(','),
    restore: () => {
      setCpuList(brokerPid, before.broker);
      setCpuList(process.pid, before.self);
    },
  };
}
