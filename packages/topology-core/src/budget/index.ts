/** @retry-studio/topology-core/budget: the retry budget: time, hops and load per message. Named exports, so what the apps use is visible here. */
export {
  BUDGET_HORIZON_MS,
  type BudgetFailure,
  type BudgetOptions,
  compareStrategies,
  computeBudget,
  formatComparison,
  formatMs,
  type RetryBudget,
  type Risk,
  type RiskKind,
  type StrategyEntry,
} from './budget.js';
