/** The inspector's shared pieces: a form's header, how an edit is applied or held, argument tables. */
import { type AmqpTable, type AmqpValue, type Design, type ValidationIssue } from '@retry-studio/topology-core/model';
import { storeOrHold } from '../store/heldEdits';
import { useApp } from '../store/store';
import { pathOf } from './validation';

export function setArg(args: AmqpTable | undefined, key: string, v: AmqpValue | undefined): AmqpTable {
  const out: Record<string, AmqpValue> = { ...(args ?? {}) };
  if (v === undefined) delete out[key];
  else out[key] = v;
  return out;
}

/** argument keys that have their own inspector field */
export const DEDICATED_ARGS = new Set([
  'x-queue-type',
  'x-message-ttl',
  'x-dead-letter-exchange',
  'x-dead-letter-routing-key',
  'x-max-length',
  'x-overflow',
  'x-expires',
  'x-delayed-type',
  'alternate-exchange',
]);

export type F = (field: string) => ValidationIssue[];

export function H({ kind, title }: { kind: string; title: string }) {
  return (
    <div className="mb-2 border-b border-slate-800 pb-1">
      <div className="text-[10px] uppercase tracking-wide text-slate-500">{kind}</div>
      <div className="truncate text-sm font-semibold">{title || '(default)'}</div>
    </div>
  );
}

export const apply = (next: Design, coalesce: string) => useApp.getState().setDesign(next, { coalesce });
/** An edit of a queue's or an exchange's field: stored when valid, else held in its field (never the design's value). */
export const hold = (next: Design, node: string, field: string) => {
  const s = useApp.getState();
  // a type change is stored: the fields it needs (x-delayed-type) appear only once it is
  if (field === 'x:type' || field === 'q:x-queue-type') return apply(next, field);
  storeOrHold(s, next, { node, objectPath: pathOf(s.design, node) ?? '', field });
};
