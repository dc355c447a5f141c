import type { DeployService } from '../deploy/deployService.js';
import type { Manifest } from '../deploy/manifest.js';
import type { Brokers } from '../broker/brokers.js';

/** What the route modules share (created once per app). */
export interface AppContext {
  readonly brokers: Brokers;
  readonly deploy: DeployService;
  readonly manifest: Manifest;
}
