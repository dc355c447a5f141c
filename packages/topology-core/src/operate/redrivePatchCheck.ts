/**
 * A dry run with an edit says, per message, whether the edit applies: a JSON patch cannot apply to
 * a plain-text body, nor to a document it does not fit (a `replace` of a missing member). Those
 * stay in the queue when the re-drive runs (the job decides the same with editCopy), so the dry
 * run counts them as staying, with the reason, instead of "would move".
 */
import { utf8ByteLength } from '../model/names.js';
import type { DeadLetterMessage } from './deadLetter.js';
import { destinationLabel, type RedrivePlan, type RedrivePlanItem } from './redrive.js';
import { RedriveTally } from './redriveCounts.js';
import { editCopy, type RedriveEdit } from './redriveEdit.js';

/** the edit's failure as a reason shared by every message it fails on (the message's own label left out) */
const sharedReason = (reason: string): string =>
  reason
    .replace(/^message [^:]*: /, '')
    .replace('so --patch cannot apply', 'so the patch cannot apply')
    .replace(/: left in the queue$/, '');

export function checkEditInPlan(
  plan: RedrivePlan,
  messages: readonly DeadLetterMessage[],
  edit: RedriveEdit | undefined,
): RedrivePlan {
  if (!edit?.patch?.length) return plan;
  const bySeq = new Map(messages.map((m) => [m.seq, m]));
  const tally = new RedriveTally();
  tally.filteredOut = plan.filteredOut;
  const items = plan.items.map((item): RedrivePlanItem => {
    const m = bySeq.get(item.seq);
    let decided = item.decision;
    // a preview cut short is no whole document: the job checks it when it reads the message
    if (decided.kind === 'move' && m && utf8ByteLength(m.body) >= m.bodyBytes) {
      const e = editCopy(m.body, edit, `#${m.seq}`);
      if (!e.ok) decided = { kind: 'skip', reason: sharedReason(e.reason) };
    }
    if (decided.kind === 'move') tally.countMoved(destinationLabel(decided));
    else tally.countSkipped(decided.reason);
    return decided === item.decision ? item : { ...item, decision: decided };
  });
  return { ...plan, ...tally.counts(), items };
}
