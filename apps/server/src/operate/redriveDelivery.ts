/**
 * One delivery of an original on one consume channel, as the re-drive's parts share it: the job
 * reads and settles it, the copy publisher sends its copy, the ledger remembers it across a loss.
 */
import type { ConsumeMessage } from 'amqplib';
import {
  editCopy,
  type DeadLetterMessage,
  type RedriveDecision,
  type RedriveEdit,
} from '@retry-studio/topology-core/operate';
import { deadLetterFromAmqp } from './deadLetterFromAmqp.js';
import { messageIdentity } from './messageIdentity.js';
import type { Slot } from './sourceAcks.js';

export interface Delivery {
  readonly gen: number;
  readonly msg: ConsumeMessage;
  slot: Slot<Delivery> | undefined;
  /** its place in the run, for the core's reading of it */
  seq: number;
  /** the core's reading of it, made when something needs it (a filter, a decision that depends on the message) */
  dl: DeadLetterMessage | undefined;
  decision: Extract<RedriveDecision, { kind: 'move' }> | undefined;
  /** counted in `seen` (not a redelivery acked without a copy, nor one beyond `before`) */
  counted: boolean;
  /** the broker returned the copy unroutable (basic.return comes before the confirm) */
  returned: boolean | undefined;
  /** taken for returned without an exact match: it may have arrived */
  returnedUnsure: boolean | undefined;
  /** copyIdentity, once computed (a return is matched by it) */
  copyId: string | undefined;
  /** a redelivery whose ack was sent but not proven when the consume side died: copied again, a possible duplicate */
  recopy: boolean | undefined;
  scheduled: boolean;
  inFlight: boolean;
  /** in flight when its consume channel died: the redelivery of the same original, waiting for this copy's confirm */
  successor: Delivery | undefined;
  waitsFor: Delivery | undefined;
  /** the identity, once computed */
  identity: string | undefined;
  /** why it is left: counted in `left` and `skipped`/`filteredOut` */
  held: Held | undefined;
  /** the copy to send instead of the original's bytes (fix-then-retry) */
  edited: EditedBytes | undefined;
  /** its edited copy may have arrived (a lost confirm): never sent again, the original stays */
  editUnsure: boolean;
}

export interface EditedBytes {
  readonly body: Buffer;
  /** set on top of the copy's headers, `x-redrive-edited` included */
  readonly headers: Record<string, unknown>;
}

/** why an edited copy is not sent a second time where an unedited one would be */
export const EDIT_NOT_TWICE =
  'its edited copy may already be at the destination (a connection was lost before it was proven): an edited copy is sent at most once, so the original is left in the queue';

export interface Held {
  reason?: string;
  filtered: boolean;
}

/** every field from the start: one object shape for all deliveries (fields added later cost a shape change each) */
export function newDelivery(gen: number, msg: ConsumeMessage, seq: number): Delivery {
  return {
    gen,
    msg,
    slot: undefined,
    seq,
    dl: undefined,
    decision: undefined,
    counted: false,
    returned: undefined,
    returnedUnsure: undefined,
    copyId: undefined,
    recopy: undefined,
    scheduled: false,
    inFlight: false,
    successor: undefined,
    waitsFor: undefined,
    identity: undefined,
    held: undefined,
    edited: undefined,
    editUnsure: false,
  };
}

export function deadLetterOf(d: Delivery): DeadLetterMessage {
  return (d.dl ??= deadLetterFromAmqp(d.msg, d.seq));
}

export function identityOf(d: Delivery): string {
  return (d.identity ??= messageIdentity(d.msg));
}

export const closedError = (err: unknown): boolean =>
  /channel closed|connection closed|channel ended|connection ended/i.test(String((err as Error)?.message ?? err));

/** Makes its edited copy (`edited`); the reason, naming the message, when the edit does not apply to it. */
export function editDelivery(d: Delivery, edit: RedriveEdit): string | undefined {
  const id = d.msg.properties.messageId as string | undefined;
  const e = editCopy(d.msg.content.toString('utf8'), edit, id ? `'${id}'` : `#${d.seq}`);
  if (!e.ok) return e.reason;
  d.edited = { body: e.body !== undefined ? Buffer.from(e.body) : d.msg.content, headers: e.headers };
  return undefined;
}
