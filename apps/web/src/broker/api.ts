/** The server's broker API. JSON in, JSON out; errors come back as `{error, field}`. */
import type {
  BindingDef,
  Design,
  EffectiveSettings,
  FailureModel,
  NodeLoss,
  PolicyDef,
  SettingChange,
  SimEvent,
} from '@retry-studio/topology-core';

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

export interface Target {
  broker?: string;
  /** the broker's management API; without it the server discovers it (and always checks it is the same broker) */
  managementUrl?: string;
  prefix?: string;
  vhost?: string;
}

export interface TriedManagement {
  baseUrl: string;
  problem: 'unreachable' | 'refused' | 'not-rabbitmq' | 'other-broker';
  message: string;
}

/** The broker's nodes as the probe and the plan report them (the server's broker/cluster.ts). */
export interface ClusterView {
  clusterName?: string;
  nodes: Array<{ name: string; running: boolean; version?: string }>;
  running: number;
  problems: Array<{ kind: 'node-down' | 'mixed-versions'; message: string; node?: string }>;
}
/** Where a queue's replicas are (the server's deploy/queuePlacement.ts). */
export interface QueuePlacement {
  type: 'classic' | 'quorum' | 'stream';
  source: 'actual' | 'expected';
  replicas: number;
  members: string[];
  leader?: string;
  online?: string[];
}

export interface Probe {
  url: string;
  product: string;
  version: string;
  majorMinor: string;
  clusterName?: string;
  /** the simulator profile that models this broker */
  suggestedProfile?: '3.10' | '4.x' | '4.3';
  exchangeTypes: string[];
  plugins: Record<string, boolean>;
  quorum: boolean;
  cluster?: ClusterView;
  management: {
    available: boolean;
    baseUrl: string;
    source?: 'given' | 'env' | 'discovered';
    version?: string;
    node?: string;
    error?: string;
    tried?: TriedManagement[];
    ms?: number;
  };
}

/** `update` and `remove` are for policies only: they change in place, queues and messages stay. */
export type PlanStatus = 'create' | 'update' | 'remove' | 'unchanged' | 'conflict' | 'unsupported';
/** the summary's order: what changes first */
export const PLAN_STATUSES: readonly PlanStatus[] = ['create', 'update', 'remove', 'unchanged', 'conflict', 'unsupported'];

interface PlanItemBase {
  status: PlanStatus;
  /** the name in the design */
  designName: string;
  /** the name on the broker (prefix applied) */
  name: string;
  message?: string;
}
/** The server's plan item (apps/server/src/deploy/planDeploy.ts), as JSON. */
export type PlanItem =
  | (PlanItemBase & {
      kind: 'exchange';
      desired: Record<string, unknown>;
      actual?: Record<string, unknown>;
      plugin?: string;
      alternative?: string;
    })
  | (PlanItemBase & {
      kind: 'queue';
      desired: Record<string, unknown>;
      actual?: Record<string, unknown> & { messages: number; consumers: number };
      differences?: string[];
      /** what the queue will run with: its arguments, the design's policies and the broker's operator policies */
      effective: EffectiveSettings;
      /** on a cluster: type, replicas and leader (or the members a new quorum queue will get) */
      placement?: QueuePlacement;
    })
  | (PlanItemBase & { kind: 'binding'; binding: BindingDef; designBinding: BindingDef })
  | (PlanItemBase & {
      kind: 'policy';
      /** absent for `remove` */
      desired?: PolicyDef;
      actual?: PolicyDef;
      /** for `update`: what changes, each in place or for new declarations only */
      changes?: SettingChange[];
    });
export interface Plan {
  vhost: string;
  prefix: string;
  items: PlanItem[];
  summary: Record<PlanStatus, number>;
  vhostMissing: boolean;
  cluster?: ClusterView;
}
export interface PlanResponse {
  broker: string;
  target: { vhost: string; prefix: string };
  plan: Plan;
  warnings?: Array<{ path: string; message: string }>;
}
export interface DeployResponse extends PlanResponse {
  error?: string;
  result: {
    ok: boolean;
    applied?: unknown[];
    skipped?: Array<{ kind: string; name: string; status: string; message?: string }>;
    failure?: { kind: string; name: string; brokerMessage: string };
  };
}
export type TeardownResponse = {
  ok: true;
  deleted: { exchanges: string[]; queues: string[]; bindings: number };
  messagesDeleted: number;
  perQueue: Array<{ queue: string; messages: number; consumers: number }>;
};
export interface TraceStart {
  id: string;
  events: string;
  prediction: string;
  warning?: string;
  target: { vhost: string; prefix: string };
}
export interface Difference {
  msgId: string;
  body: string;
  what: 'milestone' | 'routing';
  index: number;
  predicted?: string;
  actual?: string;
  at?: { t: number; seq: number };
  /** the hop where they part */
  where?: { exchange?: string; queue?: string };
  /** an at-least-once duplicate: processed again after a redelivery (a leader move), not a wrong route */
  atLeastOnce?: true;
}
export interface PredictionResponse {
  comparison: {
    messagesCompared: number;
    matching: number;
    firstDifference?: Difference;
    differences: Difference[];
    /** of the differences, at-least-once duplicates (processed again after a redelivery) */
    atLeastOnce?: number;
    note?: string;
  };
  /** the node loss the prediction includes: the one asked for, or the one the trace observed on a cluster */
  nodeLoss?: NodeLoss & { source: 'request' | 'observed' };
  predicted?: SimEvent[];
  note?: string;
}

const q = (t: Target) => {
  const p = new URLSearchParams();
  if (t.broker) p.set('url', t.broker);
  if (t.managementUrl) p.set('managementUrl', t.managementUrl);
  const s = p.toString();
  return s ? `?${s}` : '';
};
const clean = (t: Target) => ({
  ...(t.broker ? { broker: t.broker } : {}),
  ...(t.managementUrl ? { managementUrl: t.managementUrl } : {}),
  ...(t.prefix ? { prefix: t.prefix } : {}),
  ...(t.vhost ? { vhost: t.vhost } : {}),
});

export const api = {
  probe: (t: Target) => call<Probe>('GET', `/api/broker${q(t)}`),
  plan: (design: Design, t: Target) => call<PlanResponse>('POST', '/api/plan', { design, ...clean(t) }),
  deploy: (design: Design, t: Target) => call<DeployResponse>('POST', '/api/deploy', { design, ...clean(t) }),
  teardown: (designName: string, t: Target, force = false) =>
    call<TeardownResponse>('POST', '/api/teardown', { designName, ...clean(t), ...(force ? { force: true } : {}) }),
  trace: (design: Design, t: Target, run: { messages: number; failure: FailureModel; seed: number; nodeLoss?: NodeLoss; durationMs?: number }) =>
    call<TraceStart>('POST', '/api/trace', { design, ...clean(t), ...run, predict: true }),
  /** `messages`: the predicted events of the first N messages only (default: the first 20,000 events) */
  prediction: (id: string, messages?: number) =>
    call<PredictionResponse>('GET', `/api/trace/${encodeURIComponent(id)}/prediction${messages !== undefined ? `?messages=${messages}` : ''}`),
  stopTrace: (id: string) => call<unknown>('POST', `/api/trace/${encodeURIComponent(id)}/stop`, {}),
};

/** `amqp://user:***@host/` — the password never shows. */
export function maskUrl(url: string): string {
  return url.replace(/^(amqps?:\/\/[^:/@]*:)([^@]*)(@)/i, (_m, a: string, _p: string, c: string) => `${a}***${c}`);
}
