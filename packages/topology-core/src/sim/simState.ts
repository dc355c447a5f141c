/**
 * The simulator's run state, shared by the rule modules (publishRoute, deliverAck, expiry,
 * deadLetterRoute, delayedHold, quorum, stream; a call up their stack goes through `rules`, rules.ts): virtual time, the (time, seq) heap of scheduled work,
 * queues, consumers, counters, and the few helpers every rule uses (emit, release, drop).
 * Not part of the package API: Simulator (simulator.ts) is.
 */
import type { ConsumerAction } from '../model/consumer.js';
import { checkNodeLoss, outagesOf, type Outage } from './nodeLoss.js';
import type { ConsumerBehaviour, ConsumerSpec, FailureModel } from '../model/consumer.js';
import type { DropReason, PublishOrigin, SimEvent } from './events.js';
import type { Msg, SimStep, SimulationInput } from './types.js';
import { EventHeap } from './eventHeap.js';
import { attemptDraw } from './rng.js';
import { profileFor, type SemanticsProfile } from './profiles.js';
import { queueConfig } from './queueConfig.js';
import { QEntry, QueueState, type ConsumerSlot } from './queueState.js';
import { EMPTY_HEADERS } from './deadLetter.js';
import { compileExchanges, type ExchangeIndex } from '../routing/exchangeIndex.js';
import { Router, type RouteOptions } from '../routing/route.js';
import type { SimRules } from './rules.js';

const DEFAULT_MAX_TIME = 7 * 24 * 3600 * 1000;
const DEFAULT_MAX_EVENTS = 1_000_000;

export interface ConsumerState extends ConsumerSlot {
  readonly spec: ConsumerSpec;
  readonly behaviour: ConsumerBehaviour;
  readonly failure: FailureModel | undefined;
  readonly processingMs: number;
  readonly queue: QueueState;
  /** this consumer's slot in Logical.seen / Logical.counts */
  readonly ord: number;
  /** script: deliveries per body */
  readonly perBody: Map<string, number>;
  /** a stream reader's next offset (sim/stream.ts) */
  streamNext: number;
}

/** a delivery in progress is its queue entry (QEntry implements DeliveryView) */
export type Delivery = QEntry & { consumer: ConsumerState };

export type Work =
  | { readonly k: 'step' }
  | QEntry
  | { readonly k: 'retry'; readonly d: Delivery }
  /** a deferred action is due (`defer`): the consumer does it now */
  | { readonly k: 'defer'; readonly d: Delivery; readonly action: ConsumerAction }
  /** a republish's confirm arrives: the consumer acks the original */
  | { readonly k: 'confirm'; readonly d: Delivery }
  | { readonly k: 'expire'; readonly q: QueueState }
  | { readonly k: 'delayed'; readonly exchange: string; readonly msg: Msg }
  | { readonly k: 'queue-expires'; readonly q: QueueState }
  /** a 4.3 quorum queue's delayed retry ends: the entry is ready again */
  | { readonly k: 'qq-retry'; readonly q: QueueState; readonly e: QEntry }
  /** a queue of a lost node is available again (nodeLoss.ts) */
  | { readonly k: 'node-back'; readonly q: QueueState }
  /** drop-head overflow left for later in the same instant: a chain of queues evicting into each other (publishRoute.ts) */
  | { readonly k: 'overflow'; readonly q: QueueState };

export const NO_HEADERS = EMPTY_HEADERS;
/** what a pooled (released) queue entry points at */
const RELEASED: Msg = Object.freeze({
  id: '',
  logical: { id: '', index: 0, seen: 0, counts: undefined, runs: 0 },
  body: '',
  bytes: 0,
  exchange: '',
  routingKeys: [],
  headers: NO_HEADERS,
  xDeath: undefined,
  xDeathFromClient: false,
  expiration: undefined,
  ccInKeys: false,
  deliveryCount: 0,
});

export class SimState {
  readonly profile: SemanticsProfile;
  readonly heap = new EventHeap<Work>();
  readonly index: ExchangeIndex;
  readonly router: Router;
  readonly queues = new Map<string, QueueState>();
  /** queues unavailable for a while (a lost node), by name */
  readonly outages: ReadonlyMap<string, Outage>;
  /** every declared queue, deleted ones included (for ignoredArguments) */
  readonly allQueues: QueueState[];
  readonly consumers: ConsumerState[] = [];
  readonly steps: readonly SimStep[];
  readonly wantEvents: boolean;
  readonly retain: boolean;
  readonly onEvent: ((e: SimEvent) => void) | undefined;
  readonly emitDepth: boolean;
  readonly maxTime: number;
  readonly maxEvents: number;
  readonly settleMs: number | undefined;
  readonly defaultFailure: FailureModel | undefined;
  readonly startAfter: boolean;

  t = 0;
  nextStep = 0;
  /** with a publish gate: when the steps' own schedule is at (waits added up) */
  stepClock = 0;
  readonly pool: QEntry[] = [];
  readonly singleKeys = new Map<string, readonly string[]>();
  seq = 0;
  batch: SimEvent[] | undefined;
  stepsDone = false;
  lastActivity = 0;
  finished = false;
  truncatedFlag = false;
  /** how many drop-head evictions are under way, one inside another (publishRoute.ts dropHeadOverflow) */
  overflowDepth = 0;
  /** the run was cut by its time bound (not its event bound) */
  stoppedAtHorizon = false;
  logicalCount = 0;
  // per (message, attempt), not a shared sequence: the live trace's workers draw the same verdicts in their own order
  readonly random = (): number =>
    attemptDraw(this.input.seed ?? 1, this.failureCtx.messageIndex, this.failureCtx.attempt);
  readonly failureCtx: { attempt: number; body: string; messageIndex: number; random: () => number } = {
    attempt: 0,
    body: '',
    messageIndex: 0,
    random: this.random,
  };
  /** one origin object per consumer of this run (bounded by the design, dropped with the run) */
  private readonly consumerOrigins = new Map<string, PublishOrigin>();
  readonly routeOpts: RouteOptions;
  readonly routeOptsDelayDone: RouteOptions;

  readonly events: SimEvent[] = [];
  readonly publishNacked: string[] = [];
  readonly returned: string[] = [];
  hops = 0;
  published = 0;
  inFlight = 0;
  maxInFlight = 0;

  /** the calls up the stack of rule files (rules.ts says why) */
  constructor(
    readonly input: SimulationInput,
    readonly rules: SimRules,
  ) {
    this.profile = profileFor(input.profile, input.profileOptions);
    this.index = compileExchanges(input.topology, input.plugins);
    this.router = new Router(this.index);
    this.routeOpts = { strictHeaders: this.profile.strictHeaderMatch, delayDone: false };
    this.routeOptsDelayDone = { strictHeaders: this.profile.strictHeaderMatch, delayDone: true };
    for (const q of input.topology.queues)
      this.queues.set(
        q.name,
        new QueueState(queueConfig(q, input.topology.policies, this.profile, undefined, input.topology.policyPins)),
      );
    this.allQueues = [...this.queues.values()];
    this.steps = input.steps;
    this.retain = input.retainEvents ?? true;
    this.onEvent = input.onEvent;
    this.wantEvents = this.retain || this.onEvent !== undefined;
    this.emitDepth = input.emitDepth ?? false;
    this.maxTime = input.maxTimeMs ?? DEFAULT_MAX_TIME;
    this.maxEvents = input.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.settleMs = input.settleMs;
    this.defaultFailure = input.failure;
    this.startAfter = input.startConsumers === 'after';
    const lossIssue = input.nodeLoss && checkNodeLoss(input.nodeLoss, new Set(this.queues.keys()));
    if (lossIssue) throw new Error(`${lossIssue.path}: ${lossIssue.message}`);
    this.outages = outagesOf(input.nodeLoss, (q) => this.queues.get(q)?.cfg.quorum === true);
  }

  consumerOrigin(id: string): PublishOrigin {
    let o = this.consumerOrigins.get(id);
    if (!o) {
      o = { kind: 'consumer', id };
      this.consumerOrigins.set(id, o);
    }
    return o;
  }

  emit(e: SimEvent): void {
    if (this.retain) this.events.push(e);
    if (this.batch) this.batch.push(e);
    if (this.onEvent) this.onEvent(e);
  }

  /** a queue entry left the broker (acked, dead-lettered, dropped): recycle it */
  release(e: QEntry): void {
    this.inFlight--;
    if (this.pool.length < 4096) {
      // drop references so a pooled entry keeps no message alive
      e.msg = RELEASED;
      e.headers = NO_HEADERS;
      e.consumer = undefined;
      e.retry = undefined;
      this.pool.push(e);
    }
  }

  touchInFlight(delta: number): void {
    this.inFlight += delta;
    if (this.inFlight > this.maxInFlight) this.maxInFlight = this.inFlight;
  }

  drop(msg: Msg, why: DropReason, queue: string | undefined, exchange: string | undefined): void {
    if (this.wantEvents)
      this.emit({
        kind: 'dropped',
        t: this.t,
        seq: this.seq++,
        msgId: msg.id,
        body: msg.body,
        why,
        ...(queue !== undefined ? { queue } : {}),
        ...(exchange !== undefined ? { exchange } : {}),
      });
    else this.seq++;
  }

  depthChanged(q: QueueState): void {
    if (this.emitDepth && this.wantEvents)
      this.emit({
        kind: 'depth',
        t: this.t,
        seq: this.seq++,
        msgId: '',
        body: '',
        queue: q.cfg.name,
        ready: q.cfg.stream ? q.log.length : q.readyCount,
        unacked: q.unacked,
      });
  }
}
