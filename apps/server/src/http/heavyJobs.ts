/**
 * The heavy work the HTTP routes hand to worker threads (work/heavyWorkers.ts), one registered
 * object per kind. Each runs in the worker: it reads its input (a bad one is refused with the
 * route's 400 and field), says its estimated size (refused when over budget, naming the field
 * that makes it big), then does the work. Pure: no broker, no request.
 */
import {
  checkLoad,
  migrateLoad,
  rehearse,
  withTargetWorkers,
  type RehearsalLoad,
} from '@retry-studio/topology-core/rehearse';
import { readCalibration } from '@retry-studio/topology-core/calibration';
import { lintDesign } from '@retry-studio/topology-core/lint';
import type { Design } from '@retry-studio/topology-core/model';
import { designFromBroker, type BrokerSnapshot } from '@retry-studio/topology-core/operate';
import { designWorkSize, objectsWorkSize, rehearseSize } from '@retry-studio/topology-core/sizing';
import { migrateDesignForUpgrade, upgradeCheck, type UpgradeOptions } from '@retry-studio/topology-core/upgrade';
import type { RehearseRequest, RehearseResponse } from '@retry-studio/contract';
import { PredictionFailed, predictionAnswer, type TracePredictionInput } from '../trace/tracePrediction.js';
import type { HeavyJob } from '../work/workerSide.js';
import { designFromRequest } from './designInput.js';
import { HttpError } from './httpError.js';

/** POST /api/rehearse: the body as the contract's schema parsed it */
const rehearseJob: HeavyJob = {
  kind: 'rehearse',
  run(input, ctx) {
    const body = input as RehearseRequest;
    // a body with today's names, or an older one (targets[].outages): read by the load file's migration
    const load = migrateLoad(body.load as unknown as Record<string, unknown>).load as RehearsalLoad;
    // a queue target nobody consumes gets a worker, as the CLI and the browser do
    const { design } = withTargetWorkers(designFromRequest(body.design).design, load);
    let calibration;
    if (body.calibration !== undefined) {
      const c = readCalibration(body.calibration);
      if (!c.ok) {
        const first = c.issues[0]!;
        throw new HttpError(400, first.message, `calibration${first.path ? `.${first.path}` : ''}`, {
          errors: c.issues.map((i) => ({ field: `calibration.${i.path}`, message: i.message, code: i.code })),
        });
      }
      calibration = c.calibration;
    }
    const issues = checkLoad(design, load);
    if (issues.length > 0) {
      const first = issues[0]!;
      throw new HttpError(400, first.message, `load.${first.path}`, {
        errors: issues.map((i) => ({ field: `load.${i.path}`, message: i.message, code: i.code })),
      });
    }
    const opts = body.sampleMs !== undefined ? { sampleMs: body.sampleMs } : {};
    ctx.size(rehearseSize(design, load, opts));
    return rehearse(design, load, { ...opts, ...(calibration ? { calibration } : {}) }) satisfies RehearseResponse;
  },
};

export interface UpgradeCheckInput {
  readonly design: unknown;
  readonly opts: UpgradeOptions;
}

/** the upgrade check, its migration and the migrated design's own findings (what --verify-on declares) */
const upgradeCheckJob: HeavyJob = {
  kind: 'upgrade-check',
  run(input, ctx) {
    const { opts, ...rest } = input as UpgradeCheckInput;
    const { design } = designFromRequest(rest.design);
    ctx.size(designWorkSize('upgrade-check', design));
    const report = upgradeCheck(design, opts);
    const migration = migrateDesignForUpgrade(design, opts);
    const migratedFindings = upgradeCheck({ ...migration.design, profile: opts.from }, opts).findings;
    return { design, report, migration, migratedFindings };
  },
};

/** the plan's lint, with the target's node count */
const lintJob: HeavyJob = {
  kind: 'lint',
  run(input, ctx) {
    const { design, nodes } = input as { design: Design; nodes: number };
    ctx.size(designWorkSize('lint', design));
    return lintDesign(design, { nodes });
  },
};

/** a vhost's definitions (read by the server) scaffolded as a design */
const importJob: HeavyJob = {
  kind: 'import',
  run(input, ctx) {
    const { snapshot, name } = input as { snapshot: BrokerSnapshot; name?: string };
    const objects =
      snapshot.queues.length + snapshot.exchanges.length + snapshot.bindings.length + (snapshot.policies?.length ?? 0);
    ctx.size(objectsWorkSize('import', objects, { field: 'vhost', option: '--vhost' }));
    return designFromBroker(snapshot, name ? { name } : {});
  },
};

/** a big design read and checked (parseDesign of a 1.2 MB design takes 400 ms) */
const designJob: HeavyJob = {
  kind: 'design',
  run: (input) => designFromRequest(input),
};

/** a live trace's prediction and its comparison with what the trace saw (bounded: 2,000 messages) */
const tracePredictionJob: HeavyJob = {
  kind: 'trace-prediction',
  run(input) {
    try {
      return predictionAnswer(input as TracePredictionInput);
    } catch (e) {
      if (e instanceof PredictionFailed) throw new HttpError(500, e.message);
      throw e;
    }
  },
};

export const HEAVY_JOBS: readonly HeavyJob[] = [
  rehearseJob,
  upgradeCheckJob,
  lintJob,
  importJob,
  designJob,
  tracePredictionJob,
];
