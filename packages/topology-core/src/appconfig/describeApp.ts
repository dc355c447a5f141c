/** An imported application in words: per consumer, where it was configured, what happens to a failing message, and the notes. */
import { consumerNodeId } from '../model/nodeIds.js';
import type { SourceSetting } from '../model/source.js';
import { describeOutcome } from '../sim/outcomeText.js';
import { formatMs } from '../text/formatDuration.js';
import { appJourneys, HORIZON_MS, refusedQueueOf } from './journey.js';
import type { ImportedApp } from './importApp.js';

const MAX_WAITS_SHOWN = 8;

/** Where a value came from: its line (in its own file when not the node's), how it got there, the option that told it, or the default's citation. */
function settingOrigin(st: SourceSetting): string {
  if (st.line === undefined)
    return st.via !== undefined && st.cite === undefined ? st.via : `default: ${st.cite ?? 'framework'}`;
  const at = st.file !== undefined ? `${st.file}:${st.line}` : `line ${st.line}`;
  return st.via !== undefined ? `${at}; ${st.via}` : at;
}

/** the heading of the summary's notes (stand-ins, what is not modelled, keys never read, traps): the browser shows them first */
export const APP_NOTES_HEADING = 'notes (not modelled, keys the framework never reads, traps):';

export function describeApp(app: ImportedApp): string {
  const d = app.design;
  const lines: string[] = [
    `${d.name}: ${app.frameworks.join(', ')}; ${d.topology.exchanges.length} exchanges, ${d.topology.queues.length} queues, ${d.consumers.length} consumers`,
  ];
  const journeys = appJourneys(d);
  for (const c of d.consumers) {
    const s = d.sources?.[consumerNodeId(c.id)];
    const j = journeys.find((x) => x.consumer === c.id);
    lines.push(`- ${c.id} reads ${c.queue}${s ? ` (${s.file}:${s.line})` : ''}`);
    const refused = refusedQueueOf(d, c.queue);
    if (refused.length)
      lines.push(
        `  never consumes on RabbitMQ ${d.profile}: the broker refuses ${c.queue} (${refused.join(', ')}), so the queue is never declared and a message sent to it is unroutable`,
      );
    else if (j) {
      const waits =
        j.delaysMs.slice(0, MAX_WAITS_SHOWN).map(formatMs).join(', ') +
        (j.delaysMs.length > MAX_WAITS_SHOWN ? `, ... (${j.delaysMs.length} waits)` : '');
      // a loop the simulation had to stop: its count is where it stopped, not an end
      const count =
        j.outcome.kind === 'moving' ? `${j.attempts}+ attempts` : `${j.attempts} attempt${j.attempts === 1 ? '' : 's'}`;
      lines.push(
        `  a message that always fails: ${count}${j.delaysMs.length ? `, waits ${waits}` : ''}; ${describeOutcome(j.outcome, { topology: d.topology, horizonMs: HORIZON_MS })}`,
      );
    }
    for (const st of s?.settings ?? []) lines.push(`  ${st.key} = ${st.value}  (${settingOrigin(st)})`);
  }
  if (app.environment?.length) lines.push(`environment read from: ${app.environment.join(', ')}`);
  if (app.notes.length > 0) {
    lines.push(APP_NOTES_HEADING);
    for (const n of app.notes) lines.push(`  ${n.file}:${n.line}: ${n.text}`);
  }
  return lines.join('\n') + '\n';
}
