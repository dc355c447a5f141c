/** The server's operate API (import, depths, browse, re-drive), typed by the contract. */
import type {
  BrowseRequest,
  BrowseResponse,
  DepthsResponse,
  ImportResponse,
  OperateAt,
  JobProgress,
  RedriveDryRunResponse,
  RedriveRequestBody,
  RedriveStarted,
} from '@retry-studio/contract';
import { call } from '../broker/api';

/** A re-drive as the Operate tab asks for it (the request without its target). */
export type RedriveOptions = Omit<RedriveRequestBody, 'broker' | 'managementUrl' | 'vhost' | 'dryRun'>;

export { isCanary } from '@retry-studio/contract';
export type { JobProgress };

const clean = (at: OperateAt) => ({
  ...(at.broker ? { broker: at.broker } : {}),
  ...(at.managementUrl ? { managementUrl: at.managementUrl } : {}),
  ...(at.vhost ? { vhost: at.vhost } : {}),
});

export const operateApi = {
  importBroker: (at: OperateAt) => call<ImportResponse>('POST', '/api/operate/import', clean(at)),
  depths: (at: OperateAt) => call<DepthsResponse>('POST', '/api/operate/depths', clean(at)),
  browse: (at: OperateAt, queue: string, limit: number, insist = false) =>
    call<BrowseResponse>('POST', '/api/operate/browse', {
      ...clean(at),
      queue,
      limit,
      ...(insist ? { insist } : {}),
    } satisfies BrowseRequest),
  dryRun: (at: OperateAt, o: RedriveOptions) =>
    call<RedriveDryRunResponse>('POST', '/api/operate/redrive', {
      ...clean(at),
      ...o,
      dryRun: true,
    } satisfies RedriveRequestBody),
  redrive: (at: OperateAt, o: RedriveOptions) =>
    call<RedriveStarted>('POST', '/api/operate/redrive', { ...clean(at), ...o } satisfies RedriveRequestBody),
  progress: (id: string) => call<JobProgress>('GET', `/api/operate/redrive/${encodeURIComponent(id)}`),
  control: (id: string, action: 'pause' | 'resume' | 'cancel') =>
    call<JobProgress>('POST', `/api/operate/redrive/${encodeURIComponent(id)}/${action}`, {}),
};
