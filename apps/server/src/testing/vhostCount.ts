/** The vhosts of a test broker whose names start with `prefix` (a test's own, counted before and after). */
import type { TestBroker } from './testBrokers.js';

export async function vhostsStartingWith(broker: TestBroker, prefix: string): Promise<string[]> {
  const res = await fetch(`${broker.managementUrl}/api/vhosts?columns=name`, {
    headers: { authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64') },
  });
  const all = (await res.json()) as { name: string }[];
  return all.map((v) => v.name).filter((n) => n.startsWith(prefix));
}
