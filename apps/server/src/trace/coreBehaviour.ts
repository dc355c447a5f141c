/** The core's behaviour evaluation (packages/topology-core/src/behaviour), in one place. */
export { chooseAction, evalCounter, backoffMs, planRepublish, processingSucceeds, type DeliveryView } from '@retry-studio/topology-core';
