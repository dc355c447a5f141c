import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The process listening on a local TCP port (Linux, and only when this process may read the
 * other's file descriptors): the broker's beam.smp, found by the socket inode of its listener.
 */
export function listeningPid(port: number): string | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let rows: string[];
    try {
      rows = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const row of rows) {
      // sl local_address rem_address st ... inode: state 0A is LISTEN
      const f = row.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A' && f[9] && f[9] !== '0') inodes.add(`socket:[${f[9]}]`);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`))
        if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}
