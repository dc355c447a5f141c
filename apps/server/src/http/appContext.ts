import type { DeployService } from '../deploy/deployService.js';
import type { Manifest } from '../deploy/manifest.js';
import type { Brokers } from '../broker/brokers.js';
import type { HeavyWorkers } from '../work/heavyWorkers.js';

/** What the route modules share (created once per app). */
export interface AppContext {
  readonly brokers: Brokers;
  readonly deploy: DeployService;
  readonly manifest: Manifest;
  /** heavy work (rehearse, upgrade checks, lint, imports) in worker threads, with budgets and a queue */
  readonly heavy: HeavyWorkers;
}
