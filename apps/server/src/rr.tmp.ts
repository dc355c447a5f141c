import { readFileSync } from 'node:fs';
import { appJourneys, importAppConfig } from '@retry-studio/topology-core/appconfig';
import { lintDesign } from '@retry-studio/topology-core/lint';
for (const f of process.argv.slice(2)) {
  const app = importAppConfig([{ name: f, text: readFileSync(f, 'utf8') }]);
  for (const j of appJourneys(app.design)) console.log(j.consumer, j.queue, j.attempts, JSON.stringify(j.delaysMs.slice(0, 8)), j.endsIn.kind, (j.endsIn as {queue?: string}).queue ?? '');
  for (const p of ['3.10', '4.x'] as const) console.log(p, [...new Set(lintDesign(importAppConfig([{ name: f, text: readFileSync(f, 'utf8') }], { profile: p }).design).filter(x => x.at).map(x => x.id))].join(','));
}
