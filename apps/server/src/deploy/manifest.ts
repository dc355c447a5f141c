/**
 * What this tool created, per deployment (broker host + vhost + prefix), so that teardown
 * removes only that. Kept in memory and in `.retry-studio/manifest.json` under the cwd.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BindingDef } from '@retry-studio/topology-core/model';

export interface DeploymentRecord {
  readonly id: string;
  readonly broker: string;
  readonly vhost: string;
  readonly prefix: string;
  readonly designName: string;
  /** we created the vhost (teardown may delete it once empty) */
  createdVhost: boolean;
  exchanges: string[];
  queues: string[];
  bindings: BindingDef[];
  /** broker names of the policies this tool created */
  policies: string[];
  readonly createdAt: string;
  updatedAt: string;
}

export class Manifest {
  private readonly records = new Map<string, DeploymentRecord>();

  constructor(readonly file: string | undefined = join(process.cwd(), '.retry-studio', 'manifest.json')) {
    if (!file) return;
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as { deployments?: DeploymentRecord[] };
      // records written before policies were deployed have none
      for (const r of data.deployments ?? []) this.records.set(r.id, { ...r, policies: r.policies ?? [] });
    } catch {
      /* no manifest yet */
    }
  }

  static key(broker: string, vhost: string, prefix: string): string {
    return `${broker}|${vhost}|${prefix}`;
  }

  get(id: string): DeploymentRecord | undefined {
    return this.records.get(id);
  }

  all(): DeploymentRecord[] {
    return [...this.records.values()];
  }

  /** The record for a deployment, created empty when new. */
  open(broker: string, vhost: string, prefix: string, designName: string): DeploymentRecord {
    const id = Manifest.key(broker, vhost, prefix);
    let r = this.records.get(id);
    if (!r) {
      const now = new Date().toISOString();
      r = {
        id,
        broker,
        vhost,
        prefix,
        designName,
        createdVhost: false,
        exchanges: [],
        queues: [],
        bindings: [],
        policies: [],
        createdAt: now,
        updatedAt: now,
      };
      this.records.set(id, r);
    }
    return r;
  }

  remove(id: string): void {
    this.records.delete(id);
    this.save();
  }

  save(): void {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(
      tmp,
      JSON.stringify({ format: 'retry-studio/manifest', version: 1, deployments: this.all() }, null, 2),
    );
    renameSync(tmp, this.file);
  }
}
