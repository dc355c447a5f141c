/**
 * The HTTP contract between the server and the web app: what each route takes and returns.
 * Types and a few constants only; the request schemas (zod) are `@retry-studio/contract/schemas`.
 */
export type * from './requests.js';
export type * from './errors.js';
export type * from './brokerResponses.js';
export { PLAN_STATUSES } from './planResponses.js';
export type * from './planResponses.js';
export type * from './traceResponses.js';
export type * from './operateResponses.js';
export type * from './rehearseResponses.js';
export { isCanary } from './operateResponses.js';
export { MAX_BROWSE } from './limits.js';
