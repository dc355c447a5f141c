/**
 * The upgrade check's marks on the canvas: every object the target line refuses (red, the reason
 * on hover) and every object whose behaviour or default changes (amber). The Upgrade view puts
 * them here while it shows a result (the check, and what "Verify on the broker" saw refused) and
 * takes them away when it closes. Marks are stamped with the design version they were computed
 * for: another design or another version drops them at once (a node badge subscribes to its own
 * entry only, as the depth badges do).
 */
import { create } from 'zustand';
import type { UpgradeFinding } from '@retry-studio/topology-core/upgrade';
import type { DeclarationOutcomeView } from '@retry-studio/contract';
import { exchangeNodeId, queueNodeId } from '@retry-studio/topology-core/model';
import { useApp } from './store';
import { freshness, versionOf, type DesignVersion } from './resultsVersion';

export interface UpgradeMark {
  readonly tone: 'refused' | 'changed';
  /** one line per finding that names the node (the hover text) */
  readonly reasons: readonly string[];
}

export type UpgradeMarkMap = Readonly<Record<string, UpgradeMark>>;

/** where a set of marks comes from: the check itself, or a verification on the broker */
export type MarkSource = 'check' | 'verify';

interface Stamped {
  readonly v: DesignVersion;
  readonly marks: UpgradeMarkMap;
}

interface UpgradeMarksState {
  bySource: Partial<Record<MarkSource, Stamped>>;
  /** the marks of every source, merged: what the node badges read */
  marks: UpgradeMarkMap;
  setMarks: (source: MarkSource, marks: UpgradeMarkMap | null) => void;
}

/** a finding's kind as a mark: refused, changed, or none (a deprecation is a note, nothing changes yet) */
function toneOf(f: UpgradeFinding): UpgradeMark['tone'] | null {
  if (f.kind === 'refused') return 'refused';
  if (f.kind === 'behaviour-changed' || f.kind === 'default-changed' || f.kind === 'ignored') return 'changed';
  return null;
}

/** Adds a reason to a node's mark; refused outranks changed. */
function add(out: Record<string, UpgradeMark>, id: string, tone: UpgradeMark['tone'], reason: string): void {
  const had = out[id];
  out[id] = {
    tone: had?.tone === 'refused' || tone === 'refused' ? 'refused' : 'changed',
    reasons: had ? (had.reasons.includes(reason) ? had.reasons : [...had.reasons, reason]) : [reason],
  };
}

/** The check's findings as marks per canvas node: a refused one gives its reason and the broker's words. */
export function marksFromFindings(findings: readonly UpgradeFinding[]): UpgradeMarkMap {
  const out: Record<string, UpgradeMark> = {};
  for (const f of findings) {
    const tone = toneOf(f);
    if (!tone) continue;
    const reason =
      f.kind === 'refused' ? `refused: ${f.message} (broker: ${f.brokerWording})` : `${f.kind}: ${f.message}`;
    for (const id of f.objects) add(out, id, tone, reason);
  }
  return out;
}

/** What the broker refused in a verification (`queue Q`, `exchange X`; a binding follows its ends, a policy has no node). */
export function marksFromVerify(outcomes: readonly DeclarationOutcomeView[], brokerVersion: string): UpgradeMarkMap {
  const out: Record<string, UpgradeMark> = {};
  for (const o of outcomes) {
    if (o.accepted) continue;
    const m = /^(queue|exchange) (.*)$/.exec(o.object);
    if (!m) continue;
    const id = m[1] === 'queue' ? queueNodeId(m[2]!) : exchangeNodeId(m[2]!);
    add(out, id, 'refused', `RabbitMQ ${brokerVersion} refused it: ${o.brokerSaid ?? 'no reason given'}`);
  }
  return out;
}

function merge(bySource: Partial<Record<MarkSource, Stamped>>): UpgradeMarkMap {
  const out: Record<string, UpgradeMark> = {};
  for (const s of Object.values(bySource))
    for (const [id, m] of Object.entries(s.marks)) for (const r of m.reasons) add(out, id, m.tone, r);
  return out;
}

export const useUpgradeMarks = create<UpgradeMarksState>((set, get) => ({
  bySource: {},
  marks: {},
  setMarks: (source, marks) => {
    const bySource = { ...get().bySource };
    if (marks && Object.keys(marks).length) bySource[source] = { v: versionOf(useApp.getState()), marks };
    else delete bySource[source];
    set({ bySource, marks: merge(bySource) });
  },
}));

// another design or another version of it: marks computed for the one before leave the canvas
useApp.subscribe((s, prev) => {
  if (s.docId === prev.docId && s.designRevision === prev.designRevision) return;
  const { bySource } = useUpgradeMarks.getState();
  const now = versionOf(s);
  const kept = Object.fromEntries(
    Object.entries(bySource).filter(([, st]) => freshness(st.v, now) === 'current'),
  ) as Partial<Record<MarkSource, Stamped>>;
  if (Object.keys(kept).length !== Object.keys(bySource).length)
    useUpgradeMarks.setState({ bySource: kept, marks: merge(kept) });
});
