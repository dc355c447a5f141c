/**
 * The HTTP contract between the server and the web app: what each route takes and returns.
 * Types, a few constants and the management API's discovery order only; the request schemas (zod) are `@retry-studio/contract/schemas`.
 */
export type * from './requests.js';
export type * from './errors.js';
export type * from './brokerResponses.js';
export { PLAN_STATUSES } from './planResponses.js';
export type * from './planResponses.js';
export type * from './traceResponses.js';
export type * from './operateResponses.js';
export type * from './rehearseResponses.js';
export type * from './upgradeResponses.js';
export { isCanary } from './operateResponses.js';
export { managementCandidates, type AmqpEndpoint } from './managementCandidates.js';
export { MAX_BROWSE, MIN_RATE_PER_SECOND, MIN_RATE_TEXT } from './limits.js';
