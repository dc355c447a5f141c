/** @retry-studio/topology-core/calibration: what a broker measured holds per message and how fast one queue goes (retry-calibration/1), the calibrations shipped, and the cost model over them. Named exports, so what the apps use is visible here. */
export {
  CALIBRATION_FORMAT,
  type Calibration,
  type CeilingRow,
  type DelayedExchangeFootprint,
  type Figure,
  type FlowRow,
  type FootprintRow,
  QUEUE_STORAGES,
  type QueueStorage,
} from './format.js';
export { readCalibration, type ReadCalibrationResult } from './readCalibration.js';
export { ceilingsOf, heldCost, messageCost, type MessageCost } from './costModel.js';
export { storageOf, storageText, type StorageOf } from './queueStorage.js';
export { calibrationFor, type CalibrationInUse, SHIPPED_CALIBRATIONS, shippedFor } from './shipped.js';
