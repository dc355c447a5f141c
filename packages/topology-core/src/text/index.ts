/** @retry-studio/topology-core/text: small text helpers (ordinals, repeats). Named exports, so what the apps use is visible here. */
export { ordinal } from './ordinal.js';
export { collapseRepeats, joinCollapsed } from './collapseRepeats.js';
export { foldRuns, formatRuns, type Run } from './foldRuns.js';
export { nameList } from './nameList.js';
export { readBytes, readDuration, readOutage, readRate, readShare } from './quantities.js';
export { formatBytes } from './formatBytes.js';
export { formatBinaryBytes } from './formatBinaryBytes.js';
export { formatCount } from './formatCount.js';
