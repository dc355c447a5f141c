/** Import from a broker: read the vhost through the management API, scaffold a design in the core. */
import { designFromBroker, type BrokerSnapshot, type ImportedDesign } from '@retry-studio/topology-core/operate';
import type { OperateTarget } from './operateTarget.js';
import { readSnapshot } from './readSnapshot.js';

export type ImportResult = ImportedDesign & {
  readonly rabbitVersion: string;
  readonly vhost: string;
  readonly timings: { readonly readMs: number; readonly scaffoldMs: number };
};

/** scaffolds the snapshot as a design: here by default, in a worker thread for the server */
export type Scaffold = (snap: BrokerSnapshot, name: string | undefined) => Promise<ImportedDesign>;

const scaffoldHere: Scaffold = async (snap, name) => designFromBroker(snap, name ? { name } : {});

export async function importBroker(
  t: OperateTarget,
  opts: { name?: string | undefined } = {},
  scaffold: Scaffold = scaffoldHere,
): Promise<ImportResult> {
  const t0 = performance.now();
  const snap = await readSnapshot(t);
  const t1 = performance.now();
  const r = await scaffold(snap, opts.name);
  const t2 = performance.now();
  return {
    ...r,
    rabbitVersion: snap.rabbitVersion,
    vhost: t.vhost,
    timings: { readMs: Math.round(t1 - t0), scaffoldMs: Math.round(t2 - t1) },
  };
}
