/**
 * The request bodies as the web sends them: the schemas' input types, with the fields the core
 * checks (design, failure, nodeLoss) typed as the core's own types.
 */
import type { z } from 'zod';
import type { Design, FailureModel } from '@retry-studio/topology-core/model';
import type { NodeLoss } from '@retry-studio/topology-core/sim';
import type { deployRequest, planRequest, probeRequest, teardownRequest } from './deployRequests.js';
import type { traceRequest } from './traceRequests.js';
import type { browseRequest, depthsRequest, importRequest, redriveRequest } from './operateRequests.js';
import type { rehearseRequest } from './rehearseRequests.js';
import type { RehearsalLoad } from '@retry-studio/topology-core/rehearse';
import type { upgradeVerifyRequest } from './upgradeRequests.js';

type WithDesign<T> = Omit<T, 'design'> & { design: Design };

export type PlanRequest = WithDesign<z.input<typeof planRequest>>;
export type DeployRequest = WithDesign<z.input<typeof deployRequest>>;
export type TeardownRequest = z.input<typeof teardownRequest>;
export type ProbeRequest = z.input<typeof probeRequest>;
export type UpgradeVerifyRequest = WithDesign<z.input<typeof upgradeVerifyRequest>>;
export type TraceRequest = Omit<WithDesign<z.input<typeof traceRequest>>, 'failure' | 'nodeLoss'> & {
  failure?: FailureModel;
  nodeLoss?: NodeLoss;
};
export type ImportRequest = z.input<typeof importRequest>;
export type DepthsRequest = z.input<typeof depthsRequest>;
export type BrowseRequest = z.input<typeof browseRequest>;
export type RedriveRequestBody = z.input<typeof redriveRequest>;
export type RehearseRequest = Omit<WithDesign<z.input<typeof rehearseRequest>>, 'load'> & { load: RehearsalLoad };

/** Where a deploy-side request goes (the target fields of plan, deploy, teardown and trace). */
export type Target = Pick<PlanRequest, 'broker' | 'managementUrl' | 'prefix' | 'vhost'>;
/** Where an operate request goes. */
export type OperateAt = Pick<ImportRequest, 'broker' | 'managementUrl' | 'vhost'>;
