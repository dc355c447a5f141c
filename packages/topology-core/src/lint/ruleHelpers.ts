/** Small helpers the lint rules share (one finding shape, queue facts from the flow, consumer actions). */
import type { AmqpValue } from '../model/definitions.js';
import type { ConsumerAction, ValueExpr } from '../model/consumer.js';
import type { NodeId } from '../model/nodeIds.js';
import type { Flow } from './flow.js';
import type { LintContext, LintFinding, LintSeverity } from './types.js';

export const finding = (
  id: string,
  severity: LintSeverity,
  message: string,
  objects: NodeId[],
  fix: string,
): LintFinding => ({ id, severity, message, objects, fix });
export const isQuorum = (flow: Flow, q: string): boolean => flow.args.get(q)?.['x-queue-type'] === 'quorum';
export const hasLimit = (flow: Flow, q: string): boolean => typeof flow.args.get(q)?.['x-delivery-limit'] === 'number';
export const declared = (flow: Flow, x: string): boolean =>
  x === '' || x.startsWith('amq.') || flow.exchangeType(x) !== undefined;

/** Every action a consumer can take, with retryInProcess recoverers unfolded. */
export function allActions(ctx: LintContext): { consumer: string; queue: string; action: ConsumerAction }[] {
  const out: { consumer: string; queue: string; action: ConsumerAction }[] = [];
  const walk = (consumer: string, queue: string, a: ConsumerAction): void => {
    out.push({ consumer, queue, action: a });
    if (a.kind === 'retryInProcess') walk(consumer, queue, a.recover);
    if (a.kind === 'defer') walk(consumer, queue, a.then);
  };
  for (const c of ctx.design.consumers) {
    const b = c.behaviour;
    if (b.kind === 'worker') {
      b.onFailure.forEach((r) => walk(c.id, c.queue, r.then));
      if (b.onSuccess) walk(c.id, c.queue, b.onSuccess);
    } else if (b.kind === 'router') b.rules.forEach((r) => walk(c.id, c.queue, r.then));
    else b.actions.forEach((a) => walk(c.id, c.queue, a));
  }
  return out;
}

/** Numbers a value expression can produce (literal, curve values, exponential bounds). */
export function possibleNumbers(v: ValueExpr | AmqpValue | undefined): number[] {
  if (typeof v === 'number') return [v];
  if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) return [Number(v)];
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const e = v as { kind?: string; values?: number[]; initialMs?: number; maxMs?: number };
    if (e.kind === 'curve' && Array.isArray(e.values)) return e.values;
    if (e.kind === 'exponential') return [e.initialMs ?? 0, e.maxMs ?? 0];
  }
  return [];
}
export const isComputed = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  ['curve', 'exponential', 'counter', 'fromHeader'].includes((v as { kind?: string }).kind ?? '');
