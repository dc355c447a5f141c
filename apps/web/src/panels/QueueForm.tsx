/** The inspector's form for a queue: type, TTL, dead-lettering, length limits, expiry, other arguments. */
import {
  describeSource,
  type AmqpTable,
  type AmqpValue,
  type Design,
  type QueueDef,
} from '@retry-studio/topology-core/model';
import { queueSettings } from '../model/effective';
import { useApp } from '../store/store';
import { updateQueue } from '../model/designEdit';
import { JsonField, NumberArgField, SelectField, TextField } from './fields';
import { RenameField } from './RenameField';
import { QUEUE_LOOK, queueTypeOfDef } from '../canvas/nodes';

import { H, apply, hold, setArg, type F } from './inspectorForm';

export function QueueForm({ design, q, f }: { design: Design; q: QueueDef; f: F }) {
  const set = (next: QueueDef, field: string) => {
    hold(updateQueue(useApp.getState().design, q.name, next), `queue:${q.name}`, `q:${field}`);
    if (next.name !== q.name) useApp.getState().select([`queue:${next.name}`]);
  };
  const arg = (k: string) => q.arguments?.[k];
  const setA = (k: string, v: AmqpValue | undefined) => set({ ...q, arguments: setArg(q.arguments, k, v) }, k);
  /** a string argument; empty removes it */
  const stringArg = (k: string, label: string, testid: string, placeholder: string) => (
    <TextField
      label={label}
      testid={testid}
      value={typeof arg(k) === 'string' ? String(arg(k)) : ''}
      issues={f(`arguments.${k}`)}
      placeholder={fromPolicy(k) ?? placeholder}
      hint={effHint(k).hint}
      onChange={(v) => setA(k, v === '' ? undefined : v)}
    />
  );
  const type = queueTypeOfDef(q.arguments);
  const quorum = type === 'quorum';
  const dlx = arg('x-dead-letter-exchange');
  // what is in effect (arguments and policies, as the simulator reads them) when it is not the argument
  const eff = queueSettings(design, q.name);
  const fromPolicy = (k: string): string | undefined => {
    const e = eff[k];
    return e && e.source.kind !== 'argument'
      ? `${e.value === '' ? '(default exchange)' : String(e.value)} from ${describeSource(e.source)}`
      : undefined;
  };
  const effHint = (k: string) => {
    const p = fromPolicy(k);
    return p ? { hint: `In effect: ${p}`, placeholder: p } : {};
  };
  return (
    <div data-testid="inspector-queue">
      <H kind={QUEUE_LOOK[type].label} title={q.name} />
      <RenameField nodeId={`queue:${q.name}`} value={q.name} issues={f('name')} />
      <SelectField
        label="Queue type"
        testid="field-queue-type"
        value={type}
        issues={f('arguments.x-queue-type')}
        options={[
          { value: 'classic', label: 'classic' },
          { value: 'quorum', label: 'quorum' },
          { value: 'stream', label: 'stream' },
        ]}
        onChange={(t) => setA('x-queue-type', t === 'classic' ? undefined : t)}
      />
      {type === 'stream' ? (
        <>
          <p data-testid="stream-note" className="mb-1 text-[11px] text-lime-200">
            An append-only log, read by offset: a reader&apos;s ack removes nothing, browsing changes nothing, and a
            stream cannot dead-letter, expire or requeue (TTL, dead-letter, length and overflow arguments are refused).
            Old segments go by retention.
          </p>
          {stringArg('x-max-age', 'Retention by age (x-max-age)', 'field-max-age', 'e.g. "7D", "12h"')}
          <NumberArgField
            label="Retention by size (x-max-length-bytes)"
            testid="field-max-bytes"
            value={arg('x-max-length-bytes')}
            issues={f('arguments.x-max-length-bytes')}
            onChange={(v) => setA('x-max-length-bytes', v)}
          />
          <NumberArgField
            label="Segment size (x-stream-max-segment-size-bytes)"
            value={arg('x-stream-max-segment-size-bytes')}
            issues={f('arguments.x-stream-max-segment-size-bytes')}
            onChange={(v) => setA('x-stream-max-segment-size-bytes', v)}
          />
        </>
      ) : (
        <>
          <NumberArgField
            label="Message TTL (x-message-ttl, ms)"
            testid="field-ttl"
            value={arg('x-message-ttl')}
            issues={f('arguments.x-message-ttl')}
            {...effHint('x-message-ttl')}
            onChange={(v) => setA('x-message-ttl', v)}
          />
          <SelectField
            label="Dead-letter exchange"
            testid="field-dlx"
            value={typeof dlx === 'string' ? dlx : '\u0000'}
            issues={f('arguments.x-dead-letter-exchange')}
            hint={effHint('x-dead-letter-exchange').hint}
            options={[
              {
                value: '\u0000',
                label: fromPolicy('x-dead-letter-exchange')
                  ? `(no argument: ${fromPolicy('x-dead-letter-exchange')})`
                  : '(none)',
              },
              { value: '', label: '(default exchange)' },
              ...design.topology.exchanges.map((o) => ({ value: o.name, label: o.name })),
            ]}
            onChange={(v) => setA('x-dead-letter-exchange', v === '\u0000' ? undefined : v)}
          />
          {stringArg('x-dead-letter-routing-key', 'Dead-letter routing key', 'field-dlrk', 'keep the original key')}
          <NumberArgField
            label="Max length (x-max-length)"
            value={arg('x-max-length')}
            issues={f('arguments.x-max-length')}
            {...effHint('x-max-length')}
            onChange={(v) => setA('x-max-length', v)}
          />
          <SelectField
            label="Overflow (x-overflow)"
            value={typeof arg('x-overflow') === 'string' ? String(arg('x-overflow')) : ''}
            issues={f('arguments.x-overflow')}
            hint={effHint('x-overflow').hint}
            options={['', 'drop-head', 'reject-publish', 'reject-publish-dlx'].map((o) => ({
              value: o,
              label: o || '(default: drop-head)',
            }))}
            onChange={(v) => setA('x-overflow', v || undefined)}
          />
          {quorum && (
            <NumberArgField
              label="Delivery limit (x-delivery-limit)"
              testid="field-delivery-limit"
              value={arg('x-delivery-limit')}
              issues={f('arguments.x-delivery-limit')}
              {...effHint('x-delivery-limit')}
              onChange={(v) => setA('x-delivery-limit', v)}
            />
          )}
          <NumberArgField
            label="Queue expiry (x-expires, ms)"
            value={arg('x-expires')}
            issues={f('arguments.x-expires')}
            {...effHint('x-expires')}
            onChange={(v) => setA('x-expires', v)}
          />
        </>
      )}
      <JsonField
        label="All arguments"
        testid="field-queue-args"
        value={q.arguments ?? {}}
        issues={f('arguments')}
        onChange={(a) => set({ ...q, arguments: a as AmqpTable }, 'args')}
      />
    </div>
  );
}

export function DeadLetterKey({ q, f }: { q: QueueDef; f: F }) {
  const rk = q.arguments?.['x-dead-letter-routing-key'];
  return (
    <div className="mt-3">
      <TextField
        label={`Dead-letter routing key (on ${q.name})`}
        testid="field-edge-dlrk"
        value={typeof rk === 'string' ? rk : ''}
        placeholder="keep the original key"
        issues={f('arguments.x-dead-letter-routing-key')}
        onChange={(v) => {
          const args: Record<string, AmqpValue> = { ...(q.arguments ?? {}) };
          if (v === '') delete args['x-dead-letter-routing-key'];
          else args['x-dead-letter-routing-key'] = v;
          apply(updateQueue(useApp.getState().design, q.name, { ...q, arguments: args }), `dlrk:${q.name}`);
        }}
      />
    </div>
  );
}
