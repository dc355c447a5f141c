import {
  describeIssue,
  describeSource,
  type AmqpTable,
  type BindingDef,
  type ConsumerSpec,
  type Design,
  type ExchangeDef,
  type ExchangeType,
  type PublisherSpec,
  type ValidationIssue,
} from '@retry-studio/topology-core/model';
import { heldFor, useHeldEdits } from '../store/heldEdits';
import { exchangeSettings } from '../model/effective';
import { useApp } from '../store/store';
import { parseNodeId } from '../model/nodeIds';
import { edgeIdOf, parseEdgeId } from '../model/edgeIds';
import { deleteEdge, updateBinding, updateConsumer, updateExchange, updatePublisher } from '../model/designEdit';
import { CheckField, JsonField, NumberArgField, SelectField, TextField, markWarnings } from './fields';
import { fieldIssues, issuesUnder, pathOf, useValidation } from './validation';
import { behaviourLines } from '../model/describe';
import { BehaviourForm } from './BehaviourForm';
import { ConfigSource } from './ConfigSource';
import { RenameField } from './RenameField';
import { queueTypeOfDef } from '../canvas/nodes';
import { DesignSummary, StatedFateLine } from './DesignSummary';
import { AssumedPublishersNote } from './AssumedPublishersNote';

import { DEDICATED_ARGS, H, apply, hold, setArg, type F } from './inspectorForm';
import { DeadLetterKey, QueueForm } from './QueueForm';
export function Inspector() {
  const selected = useApp((s) => s.selected);
  const design = useApp((s) => s.design);
  const v = useValidation();
  const docId = useApp((s) => s.docId);
  const held = useHeldEdits((s) => s.held);
  markWarnings(v.warnings);
  const all = [...v.errors, ...v.warnings, ...heldFor(held, docId, design).flatMap((h) => h.issues)];
  if (selected.length === 0)
    return (
      <div data-testid="inspector-empty" className="p-3 text-xs text-slate-400">
        <p className="mb-2">
          Select a node or an edge to edit it. Fields are checked by the same validation the server and the CLI use, as
          you type.
        </p>
        <DesignSettings />
        <DesignSummary design={design} issues={v.errors} />
      </div>
    );
  if (selected.length > 1)
    return (
      <div className="p-3 text-xs text-slate-400">
        {selected.length} objects selected. Delete (Del) or duplicate (Ctrl+D) them together.
      </div>
    );
  const id = selected[0]!;
  const base = pathOf(design, id) ?? '';
  const under = base ? issuesUnder(all, base) : [];
  // the "arguments" JSON field shows the issues no dedicated field shows
  const f = (field: string): ValidationIssue[] =>
    field === 'arguments'
      ? fieldIssues(under, base, 'arguments').filter(
          (i) => ![...DEDICATED_ARGS].some((k) => fieldIssues([i], base, `arguments.${k}`).length > 0),
        )
      : fieldIssues(under, base, field);
  const n = parseNodeId(id);
  const key = `${id}`;
  let body: React.ReactNode = null;
  if (n?.kind === 'exchange') {
    const x = design.topology.exchanges.find((e) => e.name === n.key);
    if (x) body = <ExchangeForm key={key} design={design} x={x} f={f} />;
  } else if (n?.kind === 'queue') {
    const q = design.topology.queues.find((e) => e.name === n.key);
    if (q) body = <QueueForm key={key} design={design} q={q} f={f} />;
  } else if (n?.kind === 'consumer') {
    const c = design.consumers.find((e) => e.id === n.key);
    if (c) body = <ConsumerForm key={key} design={design} c={c} f={f} />;
  } else if (n?.kind === 'publisher') {
    const p = design.publishers.find((e) => e.id === n.key);
    if (p) body = <PublisherForm key={key} design={design} p={p} f={f} />;
  } else {
    const e = parseEdgeId(id);
    if (e?.kind === 'binding') {
      const b = design.topology.bindings.find((x) => edgeIdOf.binding(x) === id);
      if (b) body = <BindingForm key={key} id={id} b={b} f={f} />;
    } else if (e?.kind === 'deadLetter') {
      const q = design.topology.queues.find((x) => x.name === e.from);
      body = (
        <>
          <EdgeInfo id={id} kind={e.kind} />
          {q && (
            <DeadLetterKey
              q={q}
              f={(field) =>
                fieldIssues(
                  issuesUnder(all, pathOf(design, `queue:${q.name}`) ?? ''),
                  pathOf(design, `queue:${q.name}`) ?? '',
                  field,
                )
              }
            />
          )}
        </>
      );
    } else if (e) body = <EdgeInfo id={id} kind={e.kind} />;
  }
  const rest = under.filter(
    (i) =>
      !/\.(name|type|arguments|id|queue|exchange|routingKey|routing_key|behaviour|prefetch|label|properties|bodyPrefix|durable|internal)\b/.test(
        i.path.slice(base.length),
      ),
  );
  return (
    <div data-testid="inspector" className="p-3 text-slate-200">
      {body ?? <div className="text-xs text-slate-400">Nothing to edit here.</div>}
      <AssumedPublishersNote design={design} id={id} />
      {rest.map((i, k) => (
        <div key={k} className="text-[11px] text-red-400">
          {describeIssue(design, i)}
        </div>
      ))}
    </div>
  );
}

function DesignSettings() {
  const profile = useApp((s) => s.design.profile ?? '3.10');
  const description = useApp((s) => s.design.description ?? '');
  const set = (patch: Partial<Design>, key: string) => {
    const s = useApp.getState();
    s.setDesign({ ...s.design, ...patch }, { coalesce: key });
  };
  return (
    <div data-testid="design-settings" className="mb-3 border-b border-slate-800 pb-2">
      <SelectField
        label="Broker semantics (simulation and lint)"
        testid="field-profile"
        value={profile}
        options={[
          { value: '3.10', label: 'RabbitMQ 3.10 (recorded truth)' },
          { value: '4.x', label: 'RabbitMQ 4.0–4.2' },
          { value: '4.3', label: 'RabbitMQ 4.3' },
        ]}
        onChange={(v) => set({ profile: v as Design['profile'] }, 'profile')}
      />
      {description && <p className="whitespace-pre-wrap text-[11px] leading-snug text-slate-300">{description}</p>}
      <StatedFateLine />
    </div>
  );
}

function ExchangeForm({ design, x, f }: { design: Design; x: ExchangeDef; f: F }) {
  const set = (next: ExchangeDef, field: string) => {
    hold(updateExchange(useApp.getState().design, x.name, next), `exchange:${x.name}`, `x:${field}`);
    if (next.name !== x.name) useApp.getState().select([`exchange:${next.name}`]);
  };
  const others = design.topology.exchanges.filter((e) => e.name !== x.name);
  const ae = x.arguments?.['alternate-exchange'];
  const effAe = exchangeSettings(design, x.name)['alternate-exchange'];
  const aePolicy =
    effAe && effAe.source.kind !== 'argument'
      ? `${String(effAe.value)} from ${describeSource(effAe.source)}`
      : undefined;
  return (
    <div data-testid="inspector-exchange">
      <H kind="exchange" title={x.name} />
      <RenameField nodeId={`exchange:${x.name}`} value={x.name} issues={f('name')} />
      <SelectField
        label="Type"
        testid="field-type"
        value={x.type}
        issues={f('type')}
        options={(['direct', 'fanout', 'topic', 'headers', 'x-delayed-message', 'radlx'] as ExchangeType[]).map(
          (t) => ({ value: t, label: t }),
        )}
        onChange={(t) => set({ ...x, type: t as ExchangeType }, 'type')}
      />
      {x.type === 'x-delayed-message' && (
        <SelectField
          label="x-delayed-type"
          value={String(x.arguments?.['x-delayed-type'] ?? '')}
          issues={f('arguments.x-delayed-type')}
          options={['', 'direct', 'fanout', 'topic', 'headers'].map((t) => ({ value: t, label: t || '(not set)' }))}
          onChange={(t) => set({ ...x, arguments: setArg(x.arguments, 'x-delayed-type', t || undefined) }, 'dt')}
        />
      )}
      <SelectField
        label="Alternate exchange"
        value={typeof ae === 'string' ? ae : '\u0000'}
        issues={f('arguments.alternate-exchange')}
        hint={aePolicy ? `In effect: ${aePolicy}` : undefined}
        options={[
          { value: '\u0000', label: aePolicy ? `(no argument: ${aePolicy})` : '(none)' },
          ...others.map((o) => ({ value: o.name, label: o.name })),
        ]}
        onChange={(v) =>
          set({ ...x, arguments: setArg(x.arguments, 'alternate-exchange', v === '\u0000' ? undefined : v) }, 'ae')
        }
      />
      <CheckField label="durable" value={x.durable ?? true} onChange={(durable) => set({ ...x, durable }, 'durable')} />
      <CheckField
        label="internal"
        value={x.internal ?? false}
        onChange={(internal) => set({ ...x, internal }, 'internal')}
      />
      <JsonField
        label="Arguments"
        value={x.arguments ?? {}}
        issues={f('arguments')}
        onChange={(a) => set({ ...x, arguments: a as AmqpTable }, 'args')}
      />
    </div>
  );
}

function ConsumerForm({ design, c, f }: { design: Design; c: ConsumerSpec; f: F }) {
  const set = (next: ConsumerSpec, field: string) => {
    apply(updateConsumer(useApp.getState().design, c.id, next), `c:${field}`);
    if (next.id !== c.id) useApp.getState().select([`consumer:${next.id}`]);
  };
  return (
    <div data-testid="inspector-consumer">
      <H kind="consumer" title={c.label ?? c.id} />
      <ConfigSource source={design.sources?.[`consumer:${c.id}`]} />
      <TextField
        label="Id"
        testid="field-id"
        value={c.id}
        issues={f('id')}
        onChange={(id) => set({ ...c, id }, 'id')}
      />
      <TextField
        label="Label"
        value={c.label ?? ''}
        issues={f('label')}
        onChange={(label) => set({ ...c, label: label || undefined }, 'label')}
      />
      <SelectField
        label="Queue"
        testid="field-consumer-queue"
        value={c.queue}
        issues={f('queue')}
        options={[
          { value: '', label: '(none)' },
          ...design.topology.queues.map((q) => ({ value: q.name, label: q.name })),
        ]}
        onChange={(queue) => set({ ...c, queue }, 'queue')}
      />
      <NumberArgField
        label="Prefetch"
        value={c.prefetch}
        issues={f('prefetch')}
        onChange={(v) => set({ ...c, prefetch: v as number }, 'prefetch')}
      />
      {queueTypeOfDef(design.topology.queues.find((q) => q.name === c.queue)?.arguments) === 'stream' && (
        <SelectField
          label="Start at offset (x-stream-offset)"
          testid="field-stream-offset"
          value={typeof c.streamOffset === 'string' ? c.streamOffset : 'next'}
          issues={f('streamOffset')}
          options={[
            { value: 'first', label: 'first (every message kept)' },
            { value: 'last', label: 'last (the last chunk)' },
            { value: 'next', label: 'next (only new messages; the default)' },
          ]}
          onChange={(v) =>
            set({ ...c, streamOffset: v === 'next' ? undefined : (v as 'first' | 'last') }, 'streamOffset')
          }
        />
      )}
      <ul data-testid="behaviour-summary" className="mb-1 list-disc pl-4 text-[11px] text-emerald-200">
        {behaviourLines(c.behaviour).map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
      <BehaviourForm
        b={c.behaviour}
        f={f}
        exchanges={design.topology.exchanges.map((x) => x.name)}
        set={(behaviour, k) => set({ ...c, behaviour }, `beh:${k}`)}
      />
      <JsonField
        label="Advanced: behaviour as JSON (worker / router / script)"
        testid="field-behaviour"
        rows={10}
        value={c.behaviour}
        issues={f('behaviour')}
        onChange={(behaviour) => set({ ...c, behaviour: behaviour as ConsumerSpec['behaviour'] }, 'behaviour')}
      />
    </div>
  );
}

function PublisherForm({ design, p, f }: { design: Design; p: PublisherSpec; f: F }) {
  const set = (next: PublisherSpec, field: string) => {
    apply(updatePublisher(useApp.getState().design, p.id, next), `p:${field}`);
    if (next.id !== p.id) useApp.getState().select([`publisher:${next.id}`]);
  };
  return (
    <div data-testid="inspector-publisher">
      <H kind="publisher" title={p.label ?? p.id} />
      <TextField label="Id" value={p.id} issues={f('id')} onChange={(id) => set({ ...p, id }, 'id')} />
      <SelectField
        label="Exchange"
        testid="field-publisher-exchange"
        value={p.exchange}
        issues={f('exchange')}
        options={[
          { value: '', label: '(default exchange)' },
          ...design.topology.exchanges.map((x) => ({ value: x.name, label: x.name })),
        ]}
        onChange={(exchange) => set({ ...p, exchange }, 'exchange')}
      />
      <TextField
        label="Routing key"
        testid="field-routing-key"
        value={p.routingKey}
        issues={f('routingKey')}
        onChange={(routingKey) => set({ ...p, routingKey }, 'rk')}
      />
      <TextField
        label="Expiration (per-message TTL, ms as a string)"
        value={p.properties?.expiration ?? ''}
        issues={f('properties.expiration')}
        onChange={(v) =>
          set({ ...p, properties: { ...(p.properties ?? {}), expiration: v === '' ? undefined : v } }, 'exp')
        }
      />
      <TextField
        label="Body prefix"
        value={p.bodyPrefix ?? ''}
        issues={f('bodyPrefix')}
        onChange={(bodyPrefix) => set({ ...p, bodyPrefix }, 'body')}
      />
      <CheckField
        label="mandatory"
        value={p.mandatory ?? false}
        onChange={(mandatory) => set({ ...p, mandatory }, 'mandatory')}
      />
      <JsonField
        label="Headers"
        value={p.properties?.headers ?? {}}
        issues={f('properties.headers')}
        onChange={(headers) =>
          set({ ...p, properties: { ...(p.properties ?? {}), headers: headers as AmqpTable } }, 'headers')
        }
      />
    </div>
  );
}

function BindingForm({ id, b, f }: { id: string; b: BindingDef; f: F }) {
  const set = (next: BindingDef, field: string) => {
    apply(updateBinding(useApp.getState().design, id, next), `b:${field}`);
    useApp.getState().select([edgeIdOf.binding(next)]);
  };
  return (
    <div data-testid="inspector-binding">
      <H kind="binding" title={`${b.source} → ${b.destination}`} />
      <TextField
        label="Routing key"
        testid="field-binding-key"
        value={b.routing_key}
        issues={f('routing_key')}
        onChange={(routing_key) => set({ ...b, routing_key }, 'rk')}
      />
      <JsonField
        label="Arguments (headers match: x-match + headers)"
        value={b.arguments ?? {}}
        issues={f('arguments')}
        onChange={(a) => set({ ...b, arguments: a as AmqpTable }, 'args')}
      />
    </div>
  );
}

/** The dead-letter edge's own setting: the routing key dead-lettered messages are republished with. */
const EDGE_TEXT: Record<string, string> = {
  deadLetter:
    'Dead-letter edge: the queue’s x-dead-letter-exchange. Rejected, expired and over-limit messages are republished here.',
  alternate: 'Alternate exchange: messages this exchange cannot route go to it.',
  republish: 'Republish: the consumer publishes a copy to this exchange. Edit the behaviour on the consumer.',
  consume: 'The consumer reads from this queue.',
  publish: 'The publisher sends test messages to this exchange.',
};

function EdgeInfo({ id, kind }: { id: string; kind: string }) {
  return (
    <div data-testid="inspector-edge">
      <H kind="edge" title={kind} />
      <p className="mb-2 text-xs text-slate-300">{EDGE_TEXT[kind]}</p>
      <button
        type="button"
        className="rounded bg-slate-700 px-2 py-1 text-xs hover:bg-slate-600"
        onClick={() => {
          const s = useApp.getState();
          s.setDesign(deleteEdge(s.design, id));
          s.select([]);
        }}
      >
        Remove this edge
      </button>
    </div>
  );
}
