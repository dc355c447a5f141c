import { describe, expect, it } from 'vitest';
import {
  type Condition,
  type ConsumerAction,
  type ConsumerBehaviour,
  type Rule,
} from '@retry-studio/topology-core/model';
import { TEMPLATES } from '@retry-studio/topology-core/templates';
import {
  actionOfKind,
  canSettleMultiple,
  conditionOfKind,
  counterOfKind,
  failureOfKind,
  formCanShow,
  isFormAction,
  isFormCondition,
  replaceAt,
  republishExtras,
  rulesOf,
  setMultiple,
  setRuleWhen,
  setWorkerFailure,
  withField,
  withRules,
} from './behaviourForm';
import { actionText, behaviourLines } from './describe';

type Worker = Extract<ConsumerBehaviour, { kind: 'worker' }>;

const worker = (over: Partial<Worker> = {}): Worker => ({
  kind: 'worker',
  onFailure: [{ then: { kind: 'reject' } }],
  ...over,
});

/** What the form does when every control is "changed" to the value it shows. */
function touchAction(a: ConsumerAction): ConsumerAction {
  if (!isFormAction(a)) return a;
  const x = actionOfKind(a.kind, a);
  if (canSettleMultiple(x)) return setMultiple(x, x.multiple === true);
  if (x.kind !== 'republish') return x;
  return withField(withField({ ...x, exchange: x.exchange }, 'routingKey', x.routingKey), 'expiration', x.expiration);
}
function touchCondition(c: Condition | undefined): Condition | undefined {
  if (!isFormCondition(c)) return c;
  if (!c || (c.kind !== 'lt' && c.kind !== 'gte')) return conditionOfKind('always', c);
  const k = conditionOfKind(c.kind, c) as typeof c;
  return { ...k, counter: counterOfKind(k.counter.kind, k.counter), value: k.value };
}
function touch(b: ConsumerBehaviour): ConsumerBehaviour {
  let out = b;
  if (out.kind === 'worker') out = setWorkerFailure(out, failureOfKind(out.failure?.kind ?? 'inherit', out.failure));
  if (out.kind === 'script') return { ...out, actions: out.actions.map(touchAction) };
  return withRules(
    out,
    rulesOf(out).map((r: Rule) => ({ ...setRuleWhen(r, touchCondition(r.when)), then: touchAction(r.then) })),
  );
}

describe('behaviour form edits', () => {
  const all = TEMPLATES.flatMap((t) => {
    const params = Object.fromEntries(t.params.map((p) => [p.name, p.default]));
    return t.build(params as never).design.consumers.map((c) => [`${t.id}/${c.id}`, c.behaviour] as const);
  });

  it('has template behaviours to round-trip', () => {
    expect(all.length).toBeGreaterThan(10);
  });

  it.each(all)('%s survives a round trip through every form control unchanged', (_, b) => {
    expect(touch(b)).toStrictEqual(b);
  });

  it('keeps what it cannot show: curve expirations, headers, retryInProcess, other conditions', () => {
    const b = worker({
      processingMs: 5,
      onFailure: [
        { when: { kind: 'hasHeader', name: 'x-final', is: true }, then: { kind: 'reject' } },
        {
          when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'work', reason: 'rejected' }, value: 3 },
          then: {
            kind: 'republish',
            exchange: 'retry',
            headers: { 'x-retries': { kind: 'counter', by: { kind: 'header', name: 'x-retries' }, add: 1 } },
            expiration: { kind: 'curve', values: [1000, 5000], by: { kind: 'attempt' } },
          },
        },
        {
          then: {
            kind: 'retryInProcess',
            maxAttempts: 3,
            backoff: { initialMs: 100, multiplier: 2, maxMs: 1000 },
            recover: { kind: 'reject' },
          },
        },
      ],
    });
    expect(touch(b)).toStrictEqual(b);
    expect(isFormCondition(b.onFailure[0]!.when)).toBe(false);
    expect(isFormAction(b.onFailure[2]!.then)).toBe(false);
    expect(republishExtras(b.onFailure[1]!.then)).toEqual(['headers', 'expiration curve']);
    // editing one rule's routing key leaves the other rules and the republish's headers as they were
    const r1 = b.onFailure[1]!;
    const edited = withRules(
      b,
      replaceAt(b.onFailure, 1, {
        ...r1,
        then: withField(r1.then as Extract<ConsumerAction, { kind: 'republish' }>, 'routingKey', 'k'),
      }),
    ) as Worker;
    expect(edited.onFailure[0]).toBe(b.onFailure[0]);
    expect(edited.onFailure[2]).toBe(b.onFailure[2]);
    expect(edited.onFailure[1]!.then).toMatchObject({
      routingKey: 'k',
      headers: (r1.then as { headers: unknown }).headers,
    });
  });

  it('clears optional fields by deleting them, and inherit removes the failure model', () => {
    const b = worker({ failure: { kind: 'always' } });
    expect(setWorkerFailure(b, failureOfKind('inherit', b.failure))).toStrictEqual(worker());
    const a: ConsumerAction = { kind: 'republish', exchange: 'x', routingKey: 'k' };
    expect(withField(a, 'routingKey', undefined)).toStrictEqual({ kind: 'republish', exchange: 'x' });
    expect(
      setRuleWhen(
        { when: { kind: 'lt', counter: { kind: 'attempt' }, value: 2 }, then: { kind: 'ack' } },
        conditionOfKind('always', undefined),
      ),
    ).toStrictEqual({ then: { kind: 'ack' } });
  });

  it('switching lt to gte keeps the counter and the value', () => {
    const c: Condition = { kind: 'lt', counter: { kind: 'header', name: 'x-retries' }, value: 4 };
    expect(conditionOfKind('gte', c)).toStrictEqual({
      kind: 'gte',
      counter: { kind: 'header', name: 'x-retries' },
      value: 4,
    });
  });
});

describe('hold and multiple (a batch consumer)', () => {
  const batch: ConsumerBehaviour = {
    kind: 'router',
    rules: [
      { when: { kind: 'lt', counter: { kind: 'held' }, value: 3 }, then: { kind: 'hold' } },
      { then: { kind: 'reject', multiple: true } },
    ],
  };

  it('round-trips through every form control unchanged', () => {
    expect(touch(batch)).toStrictEqual(batch);
    expect(isFormAction({ kind: 'hold' })).toBe(true);
  });

  it('the multiple box sets multiple: true and deletes it when cleared; switching ack/reject/requeue keeps it', () => {
    expect(setMultiple({ kind: 'requeue' }, true)).toStrictEqual({ kind: 'requeue', multiple: true });
    expect(setMultiple({ kind: 'requeue', multiple: true }, false)).toStrictEqual({ kind: 'requeue' });
    expect(actionOfKind('requeue', { kind: 'reject', multiple: true })).toStrictEqual({
      kind: 'requeue',
      multiple: true,
    });
    expect(actionOfKind('hold', { kind: 'reject', multiple: true })).toStrictEqual({ kind: 'hold' });
    expect(actionOfKind('ack', { kind: 'reject' })).toStrictEqual({ kind: 'ack' });
    expect(counterOfKind('held', { kind: 'attempt' })).toStrictEqual({ kind: 'held' });
    expect(canSettleMultiple({ kind: 'hold' })).toBe(false);
  });

  it('reads as what goes on the wire', () => {
    expect(actionText({ kind: 'reject', multiple: true })).toBe('nack multiple (dead-letter)');
    expect(actionText({ kind: 'requeue', multiple: true })).toBe('nack multiple requeue');
    expect(actionText({ kind: 'ack', multiple: true })).toBe('ack multiple');
    expect(actionText({ kind: 'reject' })).toBe('reject');
    expect(behaviourLines(batch)).toEqual(['router', 'held<3 → hold (unacked)', '→ nack multiple (dead-letter)']);
  });
});

describe('formCanShow', () => {
  it('accepts every template behaviour and refuses half-written JSON', () => {
    for (const t of TEMPLATES) {
      const params = Object.fromEntries(t.params.map((p) => [p.name, p.default]));
      for (const c of t.build(params as never).design.consumers) expect(formCanShow(c.behaviour)).toBe(true);
    }
    expect(
      formCanShow(
        worker({
          onFailure: [
            { when: { kind: 'gte', counter: { kind: 'attempt' }, value: 'x' as never }, then: { kind: 'ack' } },
          ],
        }),
      ),
    ).toBe(true);
    for (const b of [
      null,
      3,
      {},
      { kind: 'worker' },
      { kind: 'worker', onFailure: [{}] },
      { kind: 'worker', onFailure: [{ when: { kind: 'lt' }, then: { kind: 'ack' } }] },
      { kind: 'router', rules: 'x' },
      { kind: 'script', actions: [null] },
      { kind: 'worker', failure: 'always', onFailure: [] },
    ])
      expect(formCanShow(b)).toBe(false);
  });
});
