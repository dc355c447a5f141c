/** POST /api/plan, /api/deploy, /api/teardown: the plan (the server's deploy/planDeploy.ts), what was applied, what was deleted. */
import type { LintFinding } from '@retry-studio/topology-core/lint';
import type {
  AmqpTable,
  BindingDef,
  Design,
  EffectiveSettings,
  PolicyDef,
  SettingChange,
} from '@retry-studio/topology-core/model';
import type { ClusterView } from './brokerResponses.js';

/** `update` and `remove` are for policies only: they change in place, queues and messages stay. */
export type PlanStatus = 'create' | 'update' | 'remove' | 'unchanged' | 'conflict' | 'unsupported';
/** the summary's order: what changes first */
export const PLAN_STATUSES: readonly PlanStatus[] = [
  'create',
  'update',
  'remove',
  'unchanged',
  'conflict',
  'unsupported',
];

export interface PlanItemBase {
  readonly status: PlanStatus;
  /** the name in the design */
  readonly designName: string;
  /** the name on the broker (prefix applied) */
  readonly name: string;
  /** why: conflict details, missing plugin, ... */
  readonly message?: string;
}

export interface ExchangeShape {
  readonly type: string;
  readonly durable: boolean;
  readonly auto_delete: boolean;
  readonly internal: boolean;
  readonly arguments: AmqpTable;
}
export interface QueueShape {
  readonly durable: boolean;
  readonly auto_delete: boolean;
  readonly arguments: AmqpTable;
}

/** the core models classic and quorum queues; a stream only matters here for its replicas */
export type PlacedQueueType = 'classic' | 'quorum' | 'stream';

/** Where a queue's replicas are (the server's deploy/queuePlacement.ts). */
export interface QueuePlacement {
  readonly type: PlacedQueueType;
  /** 'actual': what the broker reports; 'expected': what declaring it now will give */
  readonly source: 'actual' | 'expected';
  readonly replicas: number;
  readonly members: readonly string[];
  /** the leader (quorum, stream) or the node a classic queue lives on; unknown for a replicated queue not yet declared */
  readonly leader?: string;
  /** members reachable now (actual only) */
  readonly online?: readonly string[];
}

/** One object of the plan. `desired` is what the design declares; `actual` what the broker has (absent for `create`). */
export type PlanItem =
  | (PlanItemBase & {
      readonly kind: 'exchange';
      readonly desired: ExchangeShape;
      readonly actual?: ExchangeShape;
      /** for unsupported: the plugin that provides the type and the portable alternative */
      readonly plugin?: string;
      readonly alternative?: string;
    })
  | (PlanItemBase & {
      readonly kind: 'queue';
      readonly desired: QueueShape;
      readonly actual?: QueueShape & { readonly messages: number; readonly consumers: number };
      /** the fields that differ (`durable`, `arguments.x-message-ttl`): each needs a new queue */
      readonly differences?: readonly string[];
      /** what the queue will run with here: its arguments, the design's policies and the broker's operator policies */
      readonly effective: EffectiveSettings;
      /** type, replicas and leader in the cluster (when the broker's nodes are known) */
      readonly placement?: QueuePlacement;
    })
  | (PlanItemBase & { readonly kind: 'binding'; readonly binding: BindingDef; readonly designBinding: BindingDef })
  | (PlanItemBase & {
      readonly kind: 'policy';
      /** absent for `remove` */
      readonly desired?: PolicyDef;
      readonly actual?: PolicyDef;
      /** for `update`: what changes, each in place (or for new declarations only) */
      readonly changes?: readonly SettingChange[];
    });

export interface DeployPlan {
  readonly vhost: string;
  readonly prefix: string;
  readonly items: readonly PlanItem[];
  readonly summary: Readonly<Record<PlanStatus, number>>;
  /** the vhost does not exist yet (deploy creates it) */
  readonly vhostMissing: boolean;
  /** the broker's nodes and what makes deploying now unsafe (a node down, mixed versions) */
  readonly cluster?: ClusterView;
}

export interface DeployTarget {
  readonly vhost: string;
  readonly prefix: string;
}

/** A design warning, its path under `design.` */
export interface DesignWarning {
  readonly path: string;
  readonly message: string;
}

/** Offered when the broker lacks the delayed-message plugin: the core's portable compile of the design. */
export type PortableOffer =
  | { readonly ok: true; readonly changes: readonly string[]; readonly design: Design }
  | { readonly ok: false; readonly errors: readonly { readonly field: string; readonly message: string }[] };

export interface PlanResponse {
  /** the broker URL, password redacted */
  readonly broker: string;
  readonly target: DeployTarget;
  readonly plan: DeployPlan;
  readonly warnings?: readonly DesignWarning[];
  /** the lint with the cluster rules, when the broker's nodes are known */
  readonly lint?: readonly LintFinding[];
  readonly portable?: PortableOffer;
}

export interface AppliedItem {
  readonly kind: PlanItem['kind'];
  readonly name: string;
}
export interface ApplyResult {
  readonly ok: boolean;
  readonly applied: readonly AppliedItem[];
  readonly skipped: readonly { kind: PlanItem['kind']; name: string; status: PlanStatus; message?: string }[];
  readonly failure?: { readonly kind: PlanItem['kind']; readonly name: string; readonly brokerMessage: string };
  readonly createdVhost: boolean;
  readonly ms: number;
}

export interface DeployResponse extends Omit<PlanResponse, 'lint' | 'portable'> {
  /** set when an object could not be declared (HTTP 502): the object and the broker's message */
  readonly error?: string;
  readonly field?: string;
  /** the manifest record's id */
  readonly deployment: string;
  readonly result: ApplyResult;
}

export interface QueueOccupancy {
  readonly queue: string;
  readonly messages: number;
  readonly consumers: number;
  /** a stream the management API has not counted yet (its statistics come a few seconds late): it may hold messages */
  readonly countUnknown?: true;
}

/** Something the tool created that a teardown left on the broker, and why. */
export interface LeftBehind {
  readonly kind: 'queue' | 'exchange' | 'policy' | 'vhost';
  readonly name: string;
  readonly why: string;
}

export interface TeardownResponse {
  /** false whenever anything the tool created is left behind (`left` says what and why) */
  readonly ok: boolean;
  readonly target: DeployTarget;
  readonly deleted: {
    readonly exchanges: readonly string[];
    readonly queues: readonly string[];
    readonly bindings: number;
    readonly policies: readonly string[];
  };
  /** messages that were in the deleted queues */
  readonly messagesDeleted: number;
  readonly perQueue: readonly QueueOccupancy[];
  readonly alreadyGone: readonly string[];
  readonly deletedVhost: boolean;
  readonly left: readonly LeftBehind[];
  /** `left`, one line each (`queue 'x': why`) */
  readonly errors: readonly string[];
}
/** The 409 body of a teardown refused without `force`: the queues that hold messages or have consumers. */
export interface TeardownRefusal {
  readonly ok: false;
  readonly error: string;
  readonly field: 'force';
  readonly refused: readonly QueueOccupancy[];
}
