/**
 * The deploy plan: a count per status, then one row per object with what it is declared with
 * (its arguments) and, for an object the broker already has with other settings, each field
 * before (the broker's) and after (the design's).
 */
import { PLAN_STATUSES, type PlanItem, type PlanResponse } from '@retry-studio/contract';
import {
  EFFECT_LABEL,
  appliesInPlace,
  argumentLines,
  policyDetails,
  settingsFromPolicies,
  shapeChanges,
  shownValue,
} from '../broker/planDetails';
import { ClusterNodes, PlacementLine } from './ClusterNodes';
import { PortableOffer } from './PortableOffer';

const STATUS_TONE: Record<string, string> = {
  create: 'bg-emerald-900/60 text-emerald-200',
  update: 'bg-sky-900/70 text-sky-200',
  remove: 'bg-orange-900/70 text-orange-200',
  unchanged: 'bg-slate-700 text-slate-300',
  conflict: 'bg-red-900/70 text-red-200',
  unsupported: 'bg-amber-900/70 text-amber-200',
};

export function PlanTable({ r }: { r: PlanResponse }) {
  const s = r.plan.summary;
  return (
    <div data-testid="plan-diff">
      {s.unsupported > 0 && <PortableOffer />}
      <div className="mb-1 flex flex-wrap gap-1">
        {PLAN_STATUSES.map((k) => (
          <span key={k} data-testid={`plan-count-${k}`} className={`rounded px-1.5 ${STATUS_TONE[k]}`}>
            {s[k] ?? 0} {k}
          </span>
        ))}
      </div>
      <div className="mb-1 text-[10px] text-slate-500">
        vhost {r.target.vhost}, prefix “{r.target.prefix}”{r.plan.vhostMissing ? ' (the vhost will be created)' : ''}
      </div>
      {r.plan.cluster && r.plan.cluster.problems.length > 0 && <ClusterNodes c={r.plan.cluster} />}
      <ul className="space-y-1">
        {r.plan.items.map((it, i) => (
          <PlanRow key={i} it={it} />
        ))}
      </ul>
    </div>
  );
}

function PlanRow({ it }: { it: PlanItem }) {
  return (
    <li
      data-testid="plan-item"
      data-kind={it.kind}
      data-status={it.status}
      data-name={it.designName}
      className="rounded bg-slate-800/70 p-1.5"
    >
      <div className="flex items-center gap-1.5">
        <span className={`w-20 shrink-0 rounded px-1 text-center text-[10px] ${STATUS_TONE[it.status]}`}>
          {it.status}
        </span>
        <span className="text-[10px] text-slate-500">{it.kind}</span>
        <span className="truncate font-mono text-[11px]" title={it.name}>
          {it.name}
        </span>
      </div>
      {it.message && <div className="mt-0.5 text-[10px] text-slate-400">{it.message}</div>}
      {it.kind === 'queue' && it.placement && <PlacementLine p={it.placement} />}
      {(it.kind === 'exchange' || it.kind === 'queue') && <Declared it={it} />}
      {it.kind === 'exchange' && it.status === 'unsupported' && (it.plugin || it.alternative) && (
        <div className="mt-0.5 text-[10px] text-amber-200">
          {it.plugin && <>needs {it.plugin}. </>}
          {it.alternative && <>Portable alternative: {it.alternative}</>}
        </div>
      )}
      {it.kind === 'binding' && Object.keys(it.designBinding.arguments ?? {}).length > 0 && (
        <div data-testid="plan-arguments" className="mt-0.5 break-words font-mono text-[10px] text-slate-300">
          {argumentLines(it.designBinding.arguments).join(', ')}
        </div>
      )}
      {it.kind === 'queue' && <QueuePolicySettings it={it} />}
      {it.kind === 'policy' && <PolicyChanges it={it} />}
    </li>
  );
}

/** An exchange's or queue's arguments; where the broker has it otherwise, each difference before and after. */
function Declared({ it }: { it: Extract<PlanItem, { kind: 'exchange' | 'queue' }> }) {
  const args = argumentLines(it.desired.arguments);
  const changes = shapeChanges(it);
  return (
    <>
      <div data-testid="plan-arguments" className="mt-0.5 break-words font-mono text-[10px] text-slate-300">
        {it.kind === 'exchange' ? `${it.desired.type}${it.desired.internal ? ', internal' : ''}; ` : ''}
        {args.length ? args.join(', ') : 'no arguments'}
      </div>
      {changes.length > 0 && (
        <table data-testid="plan-changes" className="mt-1 w-full table-fixed border-collapse font-mono text-[10px]">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="w-[40%] font-normal">field</th>
              <th className="font-normal">
                broker{it.kind === 'queue' && it.actual ? ` (${it.actual.messages} msgs)` : ''}
              </th>
              <th className="font-normal">design</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.field} data-testid="plan-change" data-field={c.field}>
                <td className="truncate pr-1 text-slate-300" title={c.field}>
                  {c.field.replace(/^arguments\./, '')}
                </td>
                <td className="break-words pr-1 text-red-300" data-testid="plan-change-before">
                  {shownValue(c.from)}
                </td>
                <td className="break-words text-emerald-300" data-testid="plan-change-after">
                  {shownValue(c.to)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The settings a queue gets from a policy rather than its arguments (they can change later without a new queue). */
function QueuePolicySettings({ it }: { it: Extract<PlanItem, { kind: 'queue' }> }) {
  const from = settingsFromPolicies(it);
  if (!from.length) return null;
  return (
    <div data-testid="plan-queue-policy-settings" className="mt-0.5 font-mono text-[10px] text-slate-400">
      from policies: {from.join(', ')}
    </div>
  );
}

/** A policy's row: what it sets, or for an update each change and whether it reaches the existing queues. */
function PolicyChanges({ it }: { it: Extract<PlanItem, { kind: 'policy' }> }) {
  const lines = policyDetails(it);
  if (!lines.length) return null;
  const inPlace = appliesInPlace(lines);
  return (
    <div className="mt-0.5 text-[10px]">
      {(it.status === 'update' || it.status === 'remove') && (
        <div
          data-testid="plan-policy-in-place"
          data-in-place={inPlace}
          className={inPlace ? 'text-sky-200' : 'text-amber-200'}
        >
          {inPlace
            ? 'Applied in place: the queues it matches keep their messages.'
            : 'Partly in place: some keys reach only queues declared later.'}
        </div>
      )}
      <ul data-testid="plan-policy-changes" className="font-mono text-slate-300">
        {lines.map((l, i) => (
          <li key={i}>
            {l.text}
            {it.status === 'update' && l.effect && <span className="text-slate-500"> — {EFFECT_LABEL[l.effect]}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
