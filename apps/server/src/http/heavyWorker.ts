/** A worker thread's entry (work/heavyWorkers.ts starts it; the package bundles it as lib/heavy-worker.js). */
import { serveJobs } from '../work/workerSide.js';
import { HEAVY_JOBS } from './heavyJobs.js';

serveJobs(HEAVY_JOBS);
