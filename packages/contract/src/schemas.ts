/**
 * The request schemas (zod, strict: unknown keys are refused). A sub-path of its own so the web,
 * which only needs the types, does not bundle zod.
 */
export {
  brokerUrlField,
  managementUrlField,
  operateTargetFields,
  prefixField,
  queueField,
  targetFields,
  vhostField,
} from './fields.js';
export { deployRequest, planRequest, probeRequest, teardownRequest } from './deployRequests.js';
export { traceRequest } from './traceRequests.js';
export { browseRequest, depthsRequest, importRequest, redriveRequest } from './operateRequests.js';
export { rehearsalLoad, rehearseRequest } from './rehearseRequests.js';
export { upgradeVerifyRequest } from './upgradeRequests.js';
