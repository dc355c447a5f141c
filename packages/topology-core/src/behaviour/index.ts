/** @retry-studio/topology-core/behaviour: what a consumer behaviour does with a delivery (the simulator and the live trace workers share it). Named exports, so what the apps use is visible here. */
export {
  backoffMs,
  chooseAction,
  type DeliveryView,
  evalCondition,
  evalCounter,
  evalValue,
  type FailureContext,
  firstRule,
  isValueExpr,
  planRepublish,
  processingSucceeds,
  type RepublishPlan,
} from './evaluate.js';
export { actionSettlesMultiple, settlesMultiple, wireMethod } from './settlesMultiple.js';
