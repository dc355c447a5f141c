/**
 * What one message costs a queue, read from a calibration: RAM (the queue's own), RAM in the
 * quorum write-ahead log (node-wide, until it rolls over) and disk, for a queue's storage, TTL and
 * body size. Body sizes between two measured ones are interpolated linearly (the cost is a fixed
 * part plus a part per body byte); beyond the largest, the line through the two largest goes on.
 * A kind the calibration lacks falls back to the nearest it has, and says so.
 */
import type { Calibration, CeilingRow, FootprintRow, QueueStorage } from './format.js';

export interface MessageCost {
  readonly ramBytes: number;
  readonly walRamBytes: number;
  /**
   * RAM the node holds per resident message on top of the settled figures while messages flow:
   * heaps and binaries not yet collected (0 where the calibration measured no flow)
   */
  readonly flowRamBytes: number;
  /** what a consumed message leaves behind (quorum: the WAL figure itself where not measured, an upper bound; classic: 0 where not measured) */
  readonly consumedBytes: number;
  /** over how many consumed messages that was measured: beyond it, what they leave is not counted to grow */
  readonly consumedOver: number;
  readonly diskBytes: number;
  /** how the figure was read: measured at this body size, interpolated, extrapolated, or an estimate */
  readonly basis: string;
}

/** the storages to try when one was not measured, in order */
const FALLBACK: Record<QueueStorage, readonly QueueStorage[]> = {
  classic: [],
  'classic-v2': ['classic'],
  'classic-lazy': ['classic-v2', 'classic'],
  quorum: [],
};

interface Measured {
  readonly bodyBytes: number;
  readonly messages: number;
  readonly ramBytesPerMessage: { readonly value: number };
  readonly walRamBytesPerMessage?: { readonly value: number };
  readonly consumedBytesPerMessage?: { readonly value: number };
  readonly diskBytesPerMessage: { readonly value: number };
}
type Pick = (r: Measured) => number | undefined;
const ram: Pick = (r) => r.ramBytesPerMessage.value;
const wal: Pick = (r) => r.walRamBytesPerMessage?.value;
const churn: Pick = (r) => r.consumedBytesPerMessage?.value ?? r.walRamBytesPerMessage?.value;
const disk: Pick = (r) => r.diskBytesPerMessage.value;

/** the figure at `body` on the line through the rows' figures (rows sorted by body size) */
function along(rows: readonly Measured[], body: number, pick: Pick): number {
  const pts = rows.filter((r) => pick(r) !== undefined).map((r) => [r.bodyBytes, pick(r) as number] as const);
  if (pts.length === 0) return 0;
  if (pts.length === 1) return Math.max(0, pts[0]![1]);
  let i = pts.findIndex(([b]) => b >= body);
  if (i <= 0) i = i === 0 ? 1 : pts.length - 1;
  const [b0, y0] = pts[i - 1]!;
  const [b1, y1] = pts[i]!;
  const y = b1 === b0 ? y1 : y0 + ((y1 - y0) * (body - b0)) / (b1 - b0);
  return Math.max(0, y);
}

function rowsFor(
  cal: Calibration,
  storage: QueueStorage,
  ttl: boolean,
): { rows: FootprintRow[]; used: string } | undefined {
  for (const s of [storage, ...FALLBACK[storage]]) {
    for (const t of [ttl, !ttl]) {
      const rows = cal.footprint
        .filter((r) => r.storage === s && r.ttl === t)
        .sort((a, b) => a.bodyBytes - b.bodyBytes);
      if (rows.length > 0)
        return {
          rows,
          used: `${s === storage ? '' : `${s} figures (no ${storage} measured); `}${t === ttl ? '' : `measured ${t ? 'with' : 'without'} a TTL; `}`,
        };
    }
  }
  return undefined;
}

/** one message of `bodyBytes` in a queue of `storage` (with a TTL or not), or undefined when the calibration has nothing close */
export function messageCost(
  cal: Calibration,
  storage: QueueStorage,
  ttl: boolean,
  bodyBytes: number,
): MessageCost | undefined {
  const found = rowsFor(cal, storage, ttl);
  if (!found) return undefined;
  const { rows, used } = found;
  const exact = rows.some((r) => r.bodyBytes === bodyBytes);
  const inside = bodyBytes >= rows[0]!.bodyBytes && bodyBytes <= rows[rows.length - 1]!.bodyBytes;
  const how = exact ? 'measured' : inside ? 'interpolated' : 'extrapolated';
  const settled = { ram: along(rows, bodyBytes, ram), wal: along(rows, bodyBytes, wal) };
  const flow = underFlow(cal, storage, rows);
  return {
    ramBytes: settled.ram,
    walRamBytes: settled.wal,
    flowRamBytes: flow.atFlowBody > 0 ? (flow.extra * (settled.ram + settled.wal)) / flow.atFlowBody : flow.extra,
    consumedBytes: along(rows, bodyBytes, churn),
    consumedOver: Math.max(...rows.map((r) => r.messages)),
    diskBytes: along(rows, bodyBytes, disk),
    basis: `${used}${how} on RabbitMQ ${cal.broker.version}, ${cal.measuredAt.slice(0, 10)}${flow.said}`,
  };
}

/**
 * What the node holds per resident message under a steady flow beyond the settled figures (in
 * proportion to them at other body sizes, where they are not nil): the flow row's peak less what it is made of when
 * settled (the held message's queue RAM and WAL RAM, and what its consumption from the rejecting
 * queue left behind, which the bill counts apart); 0 where the calibration has no flow row for
 * the kind (older files) or the flow held no more.
 */
function underFlow(
  cal: Calibration,
  storage: QueueStorage,
  rows: readonly Measured[],
): { readonly extra: number; readonly atFlowBody: number; readonly said: string } {
  for (const s of [storage, ...FALLBACK[storage]]) {
    const f = cal.flow?.find((r) => r.storage === s);
    if (!f) continue;
    const settled = along(rows, f.bodyBytes, ram) + along(rows, f.bodyBytes, wal);
    const extra = f.ramBytesPerMessage.value - settled - along(rows, f.bodyBytes, churn);
    if (extra <= 0) break;
    return {
      extra,
      atFlowBody: settled,
      said: `; under a steady flow the node holds ${Math.round(extra)} B more a message at ${f.bodyBytes} B bodies, not yet collected (measured at ${f.ratePerSecond} msg/s)`,
    };
  }
  return { extra: 0, atFlowBody: 0, said: '' };
}

/**
 * A message held by a delayed-message exchange: measured where the plugin was enabled; otherwise
 * an estimate. The plugin keeps each message in a Mnesia table with a copy in RAM and one on
 * disk (rabbitmq-delayed-message-exchange, README), so it is counted as a classic queue holds a
 * message in RAM (body and message record) and on disk.
 */
export function heldCost(cal: Calibration, bodyBytes: number): MessageCost {
  const d = cal.delayedExchange;
  if (d.measured && d.rows.length > 0) {
    const rows = [...d.rows].sort((a, b) => a.bodyBytes - b.bodyBytes);
    return {
      ramBytes: along(rows, bodyBytes, ram),
      walRamBytes: 0,
      flowRamBytes: 0,
      consumedBytes: 0,
      consumedOver: 0,
      diskBytes: along(rows, bodyBytes, disk),
      basis: `measured on RabbitMQ ${cal.broker.version}, ${cal.measuredAt.slice(0, 10)}`,
    };
  }
  const classic = rowsFor(cal, 'classic', false)?.rows ?? [];
  const body = Math.max(0, bodyBytes);
  // at least the body in RAM and on disk, whatever the classic figures say (v2 keeps bodies on disk only)
  return {
    ramBytes: Math.max(body + 100, classic.length > 0 ? along(classic, body, ram) : 0),
    walRamBytes: 0,
    flowRamBytes: 0,
    consumedBytes: 0,
    consumedOver: 0,
    diskBytes: Math.max(body + 100, classic.length > 0 ? along(classic, body, disk) : 0),
    basis: `estimated: a Mnesia copy in RAM and on disk, about what a classic queue holds per message (the plugin was not enabled on RabbitMQ ${cal.broker.version} to measure)`,
  };
}

/** the ceilings of one queue of `storage`, or of the nearest kind measured */
export function ceilingsOf(cal: Calibration, storage: QueueStorage): CeilingRow | undefined {
  for (const s of [storage, ...FALLBACK[storage], 'classic' as const])
    for (const c of cal.ceilings) if (c.storage === s) return c;
  return cal.ceilings[0];
}
