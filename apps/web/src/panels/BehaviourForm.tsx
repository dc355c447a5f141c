import type {
  Condition,
  ConsumerAction,
  ConsumerBehaviour,
  Counter,
  DeathReason,
  FailureModel,
  Rule,
  ValidationIssue,
} from '@retry-studio/topology-core/model';
import { CheckField, NumberArgField, SelectField, TextField } from './fields';
import {
  DEATH_REASONS,
  actionOfKind,
  canSettleMultiple,
  conditionOfKind,
  counterOfKind,
  failureOfKind,
  formCanShow,
  isFormAction,
  isFormCondition,
  removeAt,
  replaceAt,
  republishExtras,
  rulesOf,
  setMultiple,
  setRuleWhen,
  setWorkerFailure,
  withField,
  withRules,
  type ActionKind,
  type ConditionKind,
  type FailureKind,
} from '../model/behaviourForm';
import { actionText } from '../model/describe';

/** issues for a field path under the consumer, e.g. `behaviour.onFailure[0].then.exchange` */
type F = (field: string) => ValidationIssue[];
type Set = (next: ConsumerBehaviour, key: string) => void;

const smallBtn =
  'rounded bg-slate-700 px-1.5 py-0.5 text-[11px] hover:bg-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';

function ReadOnly({ what, text, testid }: { what: string; text: string; testid?: string }) {
  return (
    <div
      data-testid={testid ?? 'behaviour-readonly'}
      className="mb-2 rounded border border-slate-700 bg-slate-950 p-1.5 text-[11px] text-slate-300"
    >
      <div className="font-mono">{text}</div>
      <div className="text-[10px] text-amber-300">
        {what}: edit it in the JSON editor below (advanced); the form keeps it as it is.
      </div>
    </div>
  );
}

/** Describes a value the form only shows; half-written JSON falls back to the JSON itself. */
function safeText(describe: () => string, raw: unknown): string {
  try {
    return describe();
  } catch {
    return JSON.stringify(raw);
  }
}

/** The structured editor for the common behaviours; the JSON editor stays as the fallback. */
export function BehaviourForm({
  b,
  f,
  set,
  exchanges,
}: {
  b: ConsumerBehaviour;
  f: F;
  set: Set;
  exchanges: readonly string[];
}) {
  if (!formCanShow(b))
    return (
      <p data-testid="behaviour-form-unavailable" className="mb-2 text-[11px] text-amber-300">
        The form cannot show this behaviour while it is half-written: finish it in the JSON editor below.
      </p>
    );
  if (b.kind === 'worker') {
    const failure = b.failure;
    return (
      <div data-testid="behaviour-form" className="mb-2">
        <FailureEditor
          failure={failure}
          f={(x) => f(`behaviour.failure${x}`)}
          onChange={(fm) => set(setWorkerFailure(b, fm), 'failure')}
        />
        <NumberArgField
          label="Processing time (ms)"
          testid="field-processing-ms"
          value={b.processingMs}
          issues={f('behaviour.processingMs')}
          onChange={(v) => set(withField(b, 'processingMs', v as number | undefined), 'processingMs')}
        />
        {b.onSuccess !== undefined && b.onSuccess.kind !== 'ack' && (
          <ReadOnly what="On success" text={safeText(() => actionText(b.onSuccess!), b.onSuccess)} />
        )}
        <RulesEditor
          title="On failure (first matching rule)"
          b={b}
          path="behaviour.onFailure"
          f={f}
          set={set}
          exchanges={exchanges}
        />
      </div>
    );
  }
  if (b.kind === 'router') {
    return (
      <div data-testid="behaviour-form" className="mb-2">
        <RulesEditor
          title="Rules (first matching rule)"
          b={b}
          path="behaviour.rules"
          f={f}
          set={set}
          exchanges={exchanges}
        />
      </div>
    );
  }
  if (b.kind === 'script') {
    return (
      <div data-testid="behaviour-form" className="mb-2">
        <div className="mb-1 text-[11px] font-medium text-slate-400">
          Actions (i-th delivery of a body; the last repeats)
        </div>
        {b.actions.map((a, i) => (
          <div key={i} data-testid="script-action" className="mb-1 flex items-start gap-1">
            <span className="mt-1 w-4 text-[10px] text-slate-500">{i + 1}.</span>
            <div className="flex-1">
              <ActionEditor
                a={a}
                f={(x) => f(`behaviour.actions[${i}]${x}`)}
                exchanges={exchanges}
                onChange={(na) => set({ ...b, actions: replaceAt(b.actions, i, na) }, `a${i}`)}
              />
            </div>
            <button
              type="button"
              className={smallBtn}
              aria-label={`Remove action ${i + 1}`}
              disabled={b.actions.length <= 1}
              onClick={() => set({ ...b, actions: removeAt(b.actions, i) }, 'actions')}
            >
              ✕
            </button>
          </div>
        ))}
        <button
          type="button"
          data-testid="add-action"
          className={smallBtn}
          onClick={() => set({ ...b, actions: [...b.actions, { kind: 'ack' }] }, 'actions')}
        >
          + action
        </button>
      </div>
    );
  }
  return null;
}

function FailureEditor({
  failure,
  f,
  onChange,
}: {
  failure: FailureModel | undefined;
  f: F;
  onChange: (fm: FailureModel | undefined) => void;
}) {
  const kind: FailureKind = failure?.kind ?? 'inherit';
  return (
    <div>
      <SelectField
        label="Failure model"
        testid="field-failure"
        value={kind}
        issues={f('')}
        options={[
          { value: 'inherit', label: 'inherit (the simulation bar’s model)' },
          { value: 'never', label: 'never fail' },
          { value: 'always', label: 'fail always' },
          { value: 'failFirst', label: 'fail the first n attempts' },
          { value: 'percent', label: 'fail a percentage' },
          { value: 'poison', label: 'poison messages' },
        ]}
        onChange={(k) => onChange(failureOfKind(k as FailureKind, failure))}
      />
      {failure?.kind === 'failFirst' && (
        <NumberArgField
          label="n (attempts that fail)"
          testid="field-failure-n"
          value={failure.n}
          issues={f('.n')}
          onChange={(v) => onChange({ ...failure, n: v as number })}
        />
      )}
      {failure?.kind === 'percent' && (
        <NumberArgField
          label="Percent failing"
          testid="field-failure-percent"
          value={failure.percent}
          issues={f('.percent')}
          onChange={(v) => onChange({ ...failure, percent: v as number })}
        />
      )}
      {failure?.kind === 'poison' && (
        <>
          <NumberArgField
            label="Every n-th message is poison"
            testid="field-failure-every"
            value={failure.every}
            issues={f('.every')}
            onChange={(v) => onChange(withField(failure, 'every', v as number | undefined))}
          />
          {failure.bodies !== undefined && <ReadOnly what="Poison bodies" text={JSON.stringify(failure.bodies)} />}
        </>
      )}
    </div>
  );
}

function RulesEditor({
  title,
  b,
  path,
  f,
  set,
  exchanges,
}: {
  title: string;
  b: ConsumerBehaviour;
  path: string;
  f: F;
  set: Set;
  exchanges: readonly string[];
}) {
  const rules = rulesOf(b);
  const setRules = (rs: readonly Rule[], key: string) => set(withRules(b, rs), key);
  return (
    <div data-testid="rules-editor">
      <div className="mb-1 text-[11px] font-medium text-slate-400">{title}</div>
      {rules.map((r, i) => (
        <div key={i} data-testid="rule-row" className="mb-1.5 rounded border border-slate-800 p-1.5">
          <div className="mb-1 flex items-center justify-between text-[10px] text-slate-500">
            <span>rule {i + 1}</span>
            <span className="flex gap-1">
              <button
                type="button"
                className={smallBtn}
                aria-label={`Move rule ${i + 1} up`}
                disabled={i === 0}
                onClick={() => setRules(replaceAt(replaceAt(rules, i - 1, r), i, rules[i - 1]!), 'rules')}
              >
                ↑
              </button>
              <button
                type="button"
                className={smallBtn}
                aria-label={`Remove rule ${i + 1}`}
                onClick={() => setRules(removeAt(rules, i), 'rules')}
              >
                ✕
              </button>
            </span>
          </div>
          <ConditionEditor
            when={r.when}
            f={(x) => f(`${path}[${i}].when${x}`)}
            onChange={(w) => setRules(replaceAt(rules, i, setRuleWhen(r, w)), `r${i}w`)}
          />
          <ActionEditor
            a={r.then}
            f={(x) => f(`${path}[${i}].then${x}`)}
            exchanges={exchanges}
            onChange={(a) => setRules(replaceAt(rules, i, { ...r, then: a }), `r${i}t`)}
          />
        </div>
      ))}
      <button
        type="button"
        data-testid="add-rule"
        className={smallBtn}
        onClick={() => setRules([...rules, { then: { kind: 'reject' } }], 'rules')}
      >
        + rule
      </button>
    </div>
  );
}

function ConditionEditor({
  when,
  f,
  onChange,
}: {
  when: Condition | undefined;
  f: F;
  onChange: (c: Condition | undefined) => void;
}) {
  if (!isFormCondition(when)) return <ReadOnly what="Condition" text={`when ${JSON.stringify(when)}`} />;
  const c = when as Extract<Condition, { kind: 'lt' | 'gte' }> | undefined;
  return (
    <div className="flex flex-wrap items-start gap-1">
      <SelectField
        label="When"
        testid="field-rule-when"
        value={c?.kind ?? 'always'}
        options={[
          { value: 'always', label: 'always' },
          { value: 'lt', label: 'counter <' },
          { value: 'gte', label: 'counter ≥' },
        ]}
        onChange={(k) => onChange(conditionOfKind(k as ConditionKind, c))}
      />
      {c && (
        <>
          <CounterEditor
            counter={c.counter}
            f={(x) => f(`.counter${x}`)}
            onChange={(counter) => onChange({ ...c, counter })}
          />
          <NumberArgField
            label="Value"
            testid="field-rule-value"
            value={c.value}
            issues={f('.value')}
            onChange={(v) => onChange({ ...c, value: v as number })}
          />
        </>
      )}
    </div>
  );
}

function CounterEditor({ counter, f, onChange }: { counter: Counter; f: F; onChange: (c: Counter) => void }) {
  return (
    <>
      <SelectField
        label="Counter"
        testid="field-rule-counter"
        value={counter.kind}
        issues={f('.kind')}
        options={[
          { value: 'attempt', label: 'attempt' },
          { value: 'header', label: 'header' },
          { value: 'deathCount', label: 'x-death count' },
          { value: 'deliveryCount', label: 'x-delivery-count' },
          { value: 'held', label: 'held (batch size)' },
        ]}
        onChange={(k) => onChange(counterOfKind(k as Counter['kind'], counter))}
      />
      {counter.kind === 'header' && (
        <TextField
          label="Header"
          value={counter.name}
          issues={f('.name')}
          onChange={(name) => onChange({ ...counter, name })}
        />
      )}
      {counter.kind === 'deathCount' && (
        <>
          <TextField
            label="Queue"
            placeholder="any"
            value={counter.queue ?? ''}
            issues={f('.queue')}
            onChange={(q) => onChange(withField(counter, 'queue', q === '' ? undefined : q))}
          />
          <SelectField
            label="Reason"
            value={counter.reason ?? ''}
            issues={f('.reason')}
            options={[{ value: '', label: 'any' }, ...DEATH_REASONS.map((r) => ({ value: r, label: r }))]}
            onChange={(r) => onChange(withField(counter, 'reason', r === '' ? undefined : (r as DeathReason)))}
          />
        </>
      )}
    </>
  );
}

function ActionEditor({
  a,
  f,
  exchanges,
  onChange,
}: {
  a: ConsumerAction;
  f: F;
  exchanges: readonly string[];
  onChange: (a: ConsumerAction) => void;
}) {
  if (!isFormAction(a)) return <ReadOnly what="Action" text={safeText(() => actionText(a), a)} />;
  const extras = republishExtras(a);
  return (
    <div className="flex flex-wrap items-start gap-1">
      <SelectField
        label="Then"
        testid="field-rule-action"
        value={a.kind}
        issues={f('.kind')}
        options={[
          { value: 'ack', label: 'ack' },
          { value: 'reject', label: 'reject (dead-letter)' },
          { value: 'requeue', label: 'requeue' },
          { value: 'hold', label: 'hold unacked' },
          { value: 'republish', label: 'republish' },
        ]}
        onChange={(k) => onChange(actionOfKind(k as ActionKind, a))}
      />
      {canSettleMultiple(a) && (
        <CheckField
          label={
            a.kind === 'ack'
              ? 'multiple (basic.ack every earlier unacked too)'
              : 'multiple (basic.nack every earlier unacked too)'
          }
          testid="field-action-multiple"
          value={a.multiple === true}
          onChange={(on) => onChange(setMultiple(a, on))}
        />
      )}
      {canSettleMultiple(a) && f('.multiple').length > 0 && (
        <ReadOnly
          what="multiple"
          text={f('.multiple')
            .map((i) => i.message)
            .join('; ')}
        />
      )}
      {a.kind === 'requeue' && (
        <SelectField
          label="Via"
          testid="field-requeue-via"
          value={a.via ?? ''}
          issues={f('.via')}
          options={[
            { value: '', label: 'basic.nack (default)' },
            { value: 'nack', label: 'basic.nack' },
            { value: 'reject', label: 'basic.reject (counts on 4.3 quorum)' },
          ]}
          onChange={(v) => onChange(withField(a, 'via', v === '' ? undefined : (v as 'nack' | 'reject')))}
        />
      )}
      {a.kind === 'republish' && (
        <>
          <SelectField
            label="Exchange"
            testid="field-republish-exchange"
            value={a.exchange}
            issues={f('.exchange')}
            options={[
              { value: '', label: '(default exchange)' },
              ...(exchanges.includes(a.exchange) || a.exchange === ''
                ? []
                : [{ value: a.exchange, label: a.exchange }]),
              ...exchanges.map((x) => ({ value: x, label: x })),
            ]}
            onChange={(exchange) => onChange({ ...a, exchange })}
          />
          <TextField
            label="Routing key"
            testid="field-republish-key"
            placeholder="the key it arrived with"
            value={a.routingKey ?? ''}
            issues={f('.routingKey')}
            onChange={(k) => onChange(withField(a, 'routingKey', k === '' ? undefined : k))}
          />
          {(a.expiration === undefined || typeof a.expiration !== 'object') && (
            <NumberArgField
              label="Expiration (ms)"
              testid="field-republish-expiration"
              value={a.expiration}
              issues={f('.expiration')}
              onChange={(v) =>
                onChange(
                  withField(a, 'expiration', typeof a.expiration === 'string' && typeof v === 'number' ? String(v) : v),
                )
              }
            />
          )}
          {extras.length > 0 && <ReadOnly what="Also" text={extras.join(', ')} />}
        </>
      )}
    </div>
  );
}
