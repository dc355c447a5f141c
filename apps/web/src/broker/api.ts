/** The server's broker API, typed by the contract (`@retry-studio/contract`). JSON in, JSON out; errors come back as `{error, field}`. */
import type { Design } from '@retry-studio/topology-core/model';
import type {
  DeployRequest,
  DeployResponse,
  PlanRequest,
  ProbeRequest,
  PlanResponse,
  PredictionResponse,
  Probe,
  TeardownRequest,
  TeardownResponse,
  Target,
  TraceRequest,
  TraceStart,
  TraceSummary,
  UpgradeVerifyRequest,
  UpgradeVerifyResponse,
} from '@retry-studio/contract';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (e) {
    throw new ApiError(`cannot reach the Retry Studio server (${(e as Error).message}); is it running?`, 0);
  }
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    if (!res.ok) throw new ApiError(`${res.status} ${res.statusText}`, res.status);
  }
  if (!res.ok)
    throw new ApiError(
      String(json.error ?? `${res.status} ${res.statusText}`),
      res.status,
      json.field as string | undefined,
      json,
    );
  return json as T;
}

const clean = (t: Target) => ({
  ...(t.broker ? { broker: t.broker } : {}),
  ...(t.managementUrl ? { managementUrl: t.managementUrl } : {}),
  ...(t.prefix ? { prefix: t.prefix } : {}),
  ...(t.vhost ? { vhost: t.vhost } : {}),
});

export const api = {
  probe: (t: Target) =>
    call<Probe>('POST', '/api/broker', {
      ...(t.broker ? { broker: t.broker } : {}),
      ...(t.managementUrl ? { managementUrl: t.managementUrl } : {}),
    } satisfies ProbeRequest),
  plan: (design: Design, t: Target) =>
    call<PlanResponse>('POST', '/api/plan', { design, ...clean(t) } satisfies PlanRequest),
  deploy: (design: Design, t: Target) =>
    call<DeployResponse>('POST', '/api/deploy', { design, ...clean(t) } satisfies DeployRequest),
  teardown: (designName: string, t: Target, force = false) =>
    call<TeardownResponse>('POST', '/api/teardown', {
      designName,
      ...clean(t),
      ...(force ? { force: true } : {}),
    } satisfies TeardownRequest),
  trace: (
    design: Design,
    t: Target,
    run: Pick<TraceRequest, 'messages' | 'failure' | 'seed' | 'nodeLoss' | 'durationMs'>,
  ) => call<TraceStart>('POST', '/api/trace', { design, ...clean(t), ...run, predict: true } satisfies TraceRequest),
  /** `messages`: the predicted events of the first N messages only (default: the first 20,000 events) */
  prediction: (id: string, messages?: number) =>
    call<PredictionResponse>(
      'GET',
      `/api/trace/${encodeURIComponent(id)}/prediction${messages !== undefined ? `?messages=${messages}` : ''}`,
    ),
  /** the upgrade check's declarations on a broker of the target line (the CLI's --verify-on) */
  upgradeVerify: (design: Design, from: UpgradeVerifyRequest['from'], to: UpgradeVerifyRequest['to'], t: Target) =>
    call<UpgradeVerifyResponse>('POST', '/api/upgrade/verify', {
      design,
      from,
      to,
      ...(t.broker ? { broker: t.broker } : {}),
      ...(t.managementUrl ? { managementUrl: t.managementUrl } : {}),
    } satisfies UpgradeVerifyRequest),
  stopTrace: (id: string) => call<TraceSummary>('POST', `/api/trace/${encodeURIComponent(id)}/stop`, {}),
};

/** `amqp://user:***@host/` — the password never shows. */
export function maskUrl(url: string): string {
  return url.replace(/^(amqps?:\/\/[^:/@]*:)([^@]*)(@)/i, (_m, a: string, _p: string, c: string) => `${a}***${c}`);
}
