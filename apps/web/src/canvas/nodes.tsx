/**
 * Node faces. Declared at module level and memoized (React Flow performance guidance):
 * a node re-renders only when its own data object changes.
 */
import { Fragment, memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { ExchangeType, PublisherSpec } from '@retry-studio/topology-core/model';
import type { DesignNode } from '../graph/flowTypes';
import { behaviourLines, queueChips, type Chip } from '../model/describe';
import { DepthBadge } from '../operate/DepthBadge';
import { UpgradeBadge } from './UpgradeBadge';
import { useQueueOutage } from './useQueueOutage';
import { faceName } from '../graph/readableZoom';
import {
  chipRows,
  FACE_LEVELS,
  facePerLevel,
  nameParts,
  nameSizes,
  wholeLines,
  type FaceAt,
  type FaceLod,
} from '../graph/faceFit';

/** One look per queue type (the palette and the canvas share it). */
export const QUEUE_LOOK: Record<'classic' | 'quorum' | 'stream', { color: string; glyph: string; label: string }> = {
  classic: { color: '#64748b', glyph: '≡', label: 'classic queue' },
  quorum: { color: '#8b5cf6', glyph: 'Q', label: 'quorum queue' },
  // a stream: an append-only log read by offset
  stream: { color: '#84cc16', glyph: '▤', label: 'stream' },
};

export function queueTypeOfDef(args: { readonly [k: string]: unknown } | undefined): 'classic' | 'quorum' | 'stream' {
  const t = args?.['x-queue-type'];
  return t === 'quorum' || t === 'stream' ? t : 'classic';
}

export const EXCHANGE_LOOK: Record<ExchangeType, { color: string; glyph: string; label: string }> = {
  direct: { color: '#3b82f6', glyph: '→', label: 'direct' },
  fanout: { color: '#22c55e', glyph: '⇉', label: 'fanout' },
  topic: { color: '#f59e0b', glyph: '#', label: 'topic' },
  headers: { color: '#14b8a6', glyph: 'H', label: 'headers' },
  'x-delayed-message': { color: '#ec4899', glyph: '◷', label: 'delayed' },
  radlx: { color: '#a855f7', glyph: 'R', label: 'radlx' },
};

const CHIP_TONE: Record<Chip['tone'], string> = {
  ttl: 'bg-amber-500/20 text-amber-200 border-amber-500/40',
  dlx: 'bg-rose-500/20 text-rose-200 border-rose-500/40',
  limit: 'bg-violet-500/20 text-violet-200 border-violet-500/40',
  type: 'bg-slate-500/30 text-slate-200 border-slate-500/40',
  misc: 'bg-slate-600/30 text-slate-300 border-slate-500/40',
};

function LintMarker({ data }: { data: DesignNode['data'] }) {
  if (!data.lint) return null;
  const tone = data.lint === 'error' ? 'bg-red-600' : data.lint === 'warning' ? 'bg-amber-500' : 'bg-sky-600';
  return (
    <span
      data-testid="lint-marker"
      title={`${data.lintCount} lint finding(s)`}
      className={`absolute -top-2 -left-2 ${tone} text-white text-[length:calc(11px*var(--ts,1))] font-bold rounded-full w-5 h-5 flex items-center justify-center shadow`}
    >
      {data.lint === 'error' ? '!' : data.lintCount}
    </span>
  );
}

function frame(selected: boolean | undefined, onPath: boolean | undefined, accent: string) {
  return {
    width: 190,
    height: 76,
    borderColor: selected ? '#f8fafc' : onPath ? '#fbbf24' : accent,
    boxShadow: selected ? `0 0 0 2px ${accent}` : onPath ? '0 0 0 2px #fbbf24' : undefined,
  };
}

/**
 * A node's name, whole: a block of its own (as an inline span its lines took the face's 24 px line height,
 * not its own 1.1: a four-line name spilled out of its face), wrapped between words and at its separators (`orders.` / `work.0`), at the
 * size each text-size level has room for (faceFit.ts: up to four lines; index.css picks the canvas's
 * level). Zoomed out it grows towards 11 px on screen like the chips. The full name is also the tooltip.
 * `sizes`: the face's (a queue's keeps a row for its defining settings: faceFit.ts's facePerLevel).
 */
function NodeName({ text, sizes = nameSizes(text) }: { text: string; sizes?: Record<FaceLod, number> }) {
  const style: Record<string, string> = { letterSpacing: '-0.02em' };
  for (const l of FACE_LEVELS) style[`--nf-${l.lod}`] = `${sizes[l.lod].toFixed(1)}px`;
  return (
    <span
      data-testid="node-name"
      className="node-name block min-w-0 font-semibold leading-[1.1] [overflow-wrap:anywhere]"
      style={style}
      title={text}
    >
      {breakable(text)}
    </span>
  );
}

/** a line may break after a separator (`.`, `-`, `_`, `:`, `/`) or a space (faceFit.ts sizes the name so no word breaks) */
function breakable(text: string): React.ReactNode {
  const parts = nameParts(text);
  if (parts.length < 2) return text;
  return parts.map((p, i) => (
    <Fragment key={i}>
      {p}
      {i < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

interface FaceChip {
  key: string;
  label: string;
  title: string;
  className: string;
  policy?: string;
  /** a defining setting (describe.ts): shown at every level */
  defining?: boolean;
  /** its short label, for a tight face (describe.ts) */
  short?: string;
}

/** a face's layout at each level (faceFit.ts), for its chips */
const faceOf = (name: string, chips: readonly FaceChip[]) =>
  facePerLevel(name, chips, chips.filter((c) => c.defining).length);

/**
 * A face's settings chips. Those that do not fit at the current text size are never dropped silently:
 * a "+N" chip says how many, and its tooltip lists them (faceFit.ts packs each text-size level; CSS shows
 * the level the canvas is at, so a zoom re-renders no node). With no room for a row, "+N" sits on the corner.
 * At a tight level (faceFit.ts) the glyph leads the row of defining settings, and "+N" sits on the corner.
 */
function Chips({
  chips,
  face,
  glyph,
}: {
  chips: readonly FaceChip[];
  face: Record<FaceLod, FaceAt>;
  glyph?: React.ReactNode;
}) {
  const all = FACE_LEVELS.map((l) => face[l.lod]);
  const same = all.every(
    (p) =>
      p.shown === all[0]!.shown &&
      p.squeezed === all[0]!.squeezed &&
      p.tight === all[0]!.tight &&
      p.short === all[0]!.short,
  );
  const levels = same
    ? [{ lod: undefined, at: all[0]! }]
    : FACE_LEVELS.map((l) => ({ lod: l.lod as FaceLod | undefined, at: face[l.lod] }));
  return (
    <>
      {levels.map(({ lod, at }) => {
        const { shown: n, squeezed, tight } = at;
        const hidden = chips.slice(n);
        const more = hidden.length ? (
          <span
            data-testid="chips-more"
            data-defining-hidden={hidden.filter((c) => c.defining).length || undefined}
            title={hidden.map((c) => c.title).join('\n')}
            className={
              n === 0 || tight
                ? 'absolute -bottom-2 right-1 rounded border border-slate-400/60 bg-slate-700 px-1 text-slate-100 shadow'
                : 'rounded border border-slate-400/60 bg-slate-700/60 px-1 text-slate-100'
            }
          >
            +{hidden.length}
          </span>
        ) : null;
        return (
          <div
            key={lod ?? 'all'}
            data-testid="node-chips"
            data-shown={n}
            data-total={chips.length}
            data-squeezed={squeezed ? 'true' : undefined}
            data-tight={tight ? 'true' : undefined}
            className={`mt-1 ${squeezed || tight ? 'flex-nowrap' : 'flex-wrap'} items-center gap-x-1 gap-y-0.5 overflow-hidden whitespace-nowrap text-[length:max(11px,calc(9px*var(--ts,1)))] leading-[1.15] ${lod ? `face-lod-${lod}` : 'flex'}`}
          >
            {tight && glyph}
            {chips.slice(0, n).map((c) => (
              <span
                key={c.key}
                title={c.title}
                data-testid="queue-chip"
                data-policy={c.policy}
                data-defining={c.defining ? 'true' : undefined}
                className={`max-w-full ${squeezed ? 'min-w-0 shrink truncate' : 'whitespace-normal'} rounded border px-1 ${c.className}`}
              >
                {at.short && c.short ? c.short : squeezed ? c.label : breakable(c.label)}
              </span>
            ))}
            {more}
          </div>
        );
      })}
    </>
  );
}

const handleCls = '!w-2.5 !h-2.5 !bg-slate-300 !border-slate-700';

/**
 * The import's stand-in publishers folded into the node they publish to (model/assumedActors.ts): a tab on
 * its left, "✉ 9", whose tooltip lists them (the inspector too). Its text keeps 9 px on screen zoomed out.
 */
function AssumedPublishers({ publishers }: { publishers: readonly PublisherSpec[] | undefined }) {
  if (!publishers?.length) return null;
  const n = publishers.length;
  const title = [
    `${n} assumed publisher${n === 1 ? '' : 's'}: stand-ins for the applications that publish here (the import added them so Simulate runs)`,
    ...publishers.map((p) => `${p.label ?? p.id}: routing key ${p.routingKey === '' ? '(none)' : p.routingKey}`),
  ].join('\n');
  return (
    <span
      data-testid="assumed-publishers"
      data-count={n}
      title={title}
      className="absolute right-full top-1 mr-1.5 whitespace-nowrap rounded-full border border-dashed border-sky-400/70 bg-slate-900/95 px-1.5 text-[length:max(11px,calc(9px*var(--ts,1)))] leading-[1.3] text-sky-200"
    >
      ✉ {n}
    </span>
  );
}

export const ExchangeNode = memo(function ExchangeNode({ id, data, selected }: NodeProps<DesignNode>) {
  if (data.kind !== 'exchange') return null;
  const look = EXCHANGE_LOOK[data.def.type] ?? EXCHANGE_LOOK.direct;
  const ae = data.settings['alternate-exchange']?.value;
  const delayedType = data.def.arguments?.['x-delayed-type'];
  const name = faceName(data);
  const xChips = exchangeChips(look.label, delayedType, ae);
  return (
    <div
      data-testid="node-exchange"
      data-name={data.def.name}
      data-onpath={data.onPath ? 'true' : undefined}
      className="relative rounded-xl border-2 bg-slate-900/95 px-2 py-1 text-slate-100"
      style={frame(selected, data.onPath, look.color)}
    >
      <LintMarker data={data} />
      <UpgradeBadge id={id} />
      <AssumedPublishers publishers={data.assumed} />
      <Handle type="target" position={Position.Left} id="in" className={handleCls} />
      <div className="flow-root">
        <span
          className="float-left mr-1.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-md text-[length:calc(14px*var(--ts,1))] font-bold text-white"
          style={{ background: look.color }}
        >
          {look.glyph}
        </span>
        <NodeName text={name} />
      </div>
      <Chips chips={xChips} face={faceOf(name, xChips)} />
      <Handle type="source" position={Position.Right} id="out" className={handleCls} />
      <Handle
        type="source"
        position={Position.Bottom}
        id="ae"
        title="alternate exchange"
        className="!w-2.5 !h-2.5 !bg-orange-400 !border-slate-700"
      />
    </div>
  );
});

export const QueueNode = memo(function QueueNode({ id, data, selected }: NodeProps<DesignNode>) {
  // a hook before the early return: rules of hooks
  const outage = useQueueOutage(data.kind === 'queue' ? data.def.name : '');
  if (data.kind !== 'queue') return null;
  const chips = queueChips(data.settings).map((c) => ({
    key: c.title,
    label: c.label,
    title: c.title,
    ...(c.policy ? { policy: c.policy } : {}),
    ...(c.defining ? { defining: true } : {}),
    ...(c.short ? { short: c.short } : {}),
    className: `${CHIP_TONE[c.tone]} ${c.policy ? 'border-dashed' : ''}`,
  }));
  const look = QUEUE_LOOK[queueTypeOfDef(data.def.arguments)];
  const face = faceOf(data.def.name, chips);
  const sizes = Object.fromEntries(FACE_LEVELS.map((l) => [l.lod, face[l.lod].namePx])) as Record<FaceLod, number>;
  // at a tight level the glyph leads the settings row and the name takes the face's width
  const glyphOff = FACE_LEVELS.filter((l) => face[l.lod].tight).map((l) => ` glyph-off-${l.lod}`);
  return (
    <div
      data-testid="node-queue"
      data-name={data.def.name}
      data-queue-type={queueTypeOfDef(data.def.arguments)}
      data-onpath={data.onPath ? 'true' : undefined}
      data-unavailable={outage ? 'true' : undefined}
      className={`relative rounded-md border-2 bg-slate-800/95 px-2 py-1 text-slate-100 ${outage ? 'opacity-50 grayscale' : ''}`}
      style={frame(selected, data.onPath, look.color)}
    >
      <LintMarker data={data} />
      <UpgradeBadge id={id} />
      {outage && (
        <span
          data-testid="queue-unavailable"
          title={
            outage.quorum
              ? 'its leader was on the lost node: no deliveries until a new leader is elected; messages wait'
              : 'a classic queue on the lost node: unavailable until the node is back; messages wait'
          }
          className="absolute -bottom-2.5 right-1 rounded bg-red-700 px-1 text-[length:calc(10px*var(--ts,1))] font-semibold text-white shadow"
        >
          {outage.quorum ? 'no leader' : 'node down'}
        </span>
      )}
      <DepthBadge queue={data.def.name} />
      <AssumedPublishers publishers={data.assumed} />
      <Handle type="target" position={Position.Left} id="in" className={handleCls} />
      <div className="flow-root">
        <span
          className={`float-left mr-1.5 flex h-6 w-6 shrink-0 items-center justify-center rounded bg-slate-600 text-[length:calc(11px*var(--ts,1))] font-bold${glyphOff.join('')}`}
          title={look.label}
        >
          {look.glyph}
        </span>
        <NodeName text={data.def.name} sizes={sizes} />
      </div>
      <Chips
        chips={chips}
        face={face}
        glyph={
          <span
            title={look.label}
            className="inline-flex h-[1.15em] w-[1.3em] shrink-0 items-center justify-center rounded bg-slate-600 font-bold"
          >
            {look.glyph}
          </span>
        }
      />
      <Handle type="source" position={Position.Right} id="out" className={handleCls} />
    </div>
  );
});

export const ConsumerNode = memo(function ConsumerNode({ id, data, selected }: NodeProps<DesignNode>) {
  if (data.kind !== 'consumer') return null;
  const lines = behaviourLines(data.def.behaviour);
  const name = faceName(data);
  return (
    <div
      data-testid="node-consumer"
      data-name={data.def.id}
      data-assumed={data.assumed ? 'true' : undefined}
      data-onpath={data.onPath ? 'true' : undefined}
      className="relative rounded-2xl border-2 border-dashed bg-slate-900/95 px-2 py-1 text-slate-100"
      style={frame(selected, data.onPath, '#10b981')}
      title={[
        ...(data.assumed
          ? [
              `${data.def.label ?? data.def.id}: assumed by the import (a stand-in for the application that consumes ${data.def.queue})`,
            ]
          : []),
        ...lines,
      ].join('\n')}
    >
      <LintMarker data={data} />
      <UpgradeBadge id={id} />
      <Handle type="target" position={Position.Left} id="in" className={handleCls} />
      <div className="flow-root">
        <span className="float-left mr-1.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-[length:calc(12px*var(--ts,1))]">
          ⚙
        </span>
        <NodeName text={name} />
      </div>
      <BehaviourLines name={name} lines={lines} />
      <Handle type="source" position={Position.Right} id="out" className={handleCls} />
    </div>
  );
});

/** the behaviour lines a consumer face has room for whole at each text-size level; the rest counted ("+2 lines"), all in the tooltip */
function BehaviourLines({ name, lines }: { name: string; lines: readonly string[] }) {
  return (
    <>
      {FACE_LEVELS.map((l) => {
        const shown = wholeLines(lines, chipRows(name, l.ts), l.ts);
        const rest = lines.filter((_, i) => !shown.includes(i));
        return (
          <div
            key={l.lod}
            className={`mt-0.5 flex-col overflow-hidden whitespace-nowrap text-[length:max(11px,calc(9px*var(--ts,1)))] leading-[1.2] text-emerald-200/90 face-lod-${l.lod}`}
          >
            {shown.map((i) => (
              <div key={i} data-testid="behaviour-line">
                {lines[i]}
              </div>
            ))}
            {rest.length > 0 && (
              <span
                data-testid="chips-more"
                title={rest.join('\n')}
                className="absolute -bottom-2 right-1 rounded border border-emerald-500/50 bg-slate-800 px-1 shadow"
              >
                +{rest.length} {rest.length === 1 ? 'line' : 'lines'}
              </span>
            )}
          </div>
        );
      })}
    </>
  );
}

export const PublisherNode = memo(function PublisherNode({ id, data, selected }: NodeProps<DesignNode>) {
  if (data.kind !== 'publisher') return null;
  return (
    <div
      data-testid="node-publisher"
      data-name={data.def.id}
      data-onpath={data.onPath ? 'true' : undefined}
      className="relative rounded-full border-2 bg-slate-900/95 px-3 py-1 text-slate-100"
      style={frame(selected, data.onPath, '#0ea5e9')}
    >
      <LintMarker data={data} />
      <UpgradeBadge id={id} />
      <div className="flow-root">
        <span className="float-left mr-1.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-sky-600 text-[length:calc(12px*var(--ts,1))]">
          ✉
        </span>
        <NodeName text={faceName(data)} />
      </div>
      <PublisherRoute
        name={data.def.label ?? data.def.id}
        route={`→ ${data.def.exchange || '(default)'} · ${data.def.routingKey || '(no key)'}`}
      />
      <Handle type="source" position={Position.Right} id="out" className={handleCls} />
    </div>
  );
});

/** where a publisher sends, at the levels it fits whole (its edge says it too; never cut short) */
function PublisherRoute({ name, route }: { name: string; route: string }) {
  return (
    <>
      {FACE_LEVELS.map((l) => (
        <div
          key={l.lod}
          title={route}
          className={`mt-0.5 whitespace-nowrap text-[length:max(11px,calc(9px*var(--ts,1)))] text-sky-200/90 face-lod-${l.lod}`}
        >
          {wholeLines([route], chipRows(name, l.ts), l.ts).length ? route : ''}
        </div>
      ))}
    </>
  );
}

function exchangeChips(typeLabel: string, delayedType: unknown, ae: unknown): FaceChip[] {
  const out: FaceChip[] = [
    {
      key: 'type',
      label: `${typeLabel} exchange`,
      title: `${typeLabel} exchange`,
      className: 'border-slate-600 text-slate-300',
    },
  ];
  if (typeof delayedType === 'string')
    out.push({
      key: 'delayed',
      label: `as ${delayedType}`,
      title: `x-delayed-type ${delayedType}`,
      className: 'border-pink-500/40 text-pink-200',
    });
  if (typeof ae === 'string')
    out.push({
      key: 'ae',
      label: `AE ${ae}`,
      title: `alternate exchange ${ae}`,
      className: 'border-orange-500/40 text-orange-200',
    });
  return out;
}

export const nodeTypes = { exchange: ExchangeNode, queue: QueueNode, consumer: ConsumerNode, publisher: PublisherNode };
