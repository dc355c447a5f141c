/** @retry-studio/topology-core/sizing: the size of a piece of work, estimated before it starts, and a budget to hold it against (the server's workers and the CLI alike). Named exports, so what the apps use is visible here. */
export { designObjects, designWorkSize, objectsWorkSize } from './designWorkSize.js';
export { rehearseSize } from './rehearseSize.js';
export { tuneSize } from './tuneSize.js';
export { UNIT_COSTS } from './unitCosts.js';
export { type BudgetDimension, type BudgetVerdict, checkBudget, type WorkBudget } from './workBudget.js';
export { type SizeDriver, type SizePart, type WorkKind, type WorkSize, workSize } from './workSize.js';
