import { listTemplates } from '@retry-studio/topology-core/templates';
import { flag, parseArgs } from './args.js';
import type { CliIo } from './context.js';

export const TEMPLATES_USAGE = 'templates [--json]              list the retry strategy templates';

export async function templatesCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: [], switches: ['json'] });
  const ts = listTemplates();
  if (flag(a, 'json')) {
    io.out(
      JSON.stringify(
        ts.map((t) => ({
          id: t.id,
          title: t.title,
          summary: t.summary,
          requires: t.requires,
          profile: t.profile,
          runsOnStock310: t.runsOnStock310,
          params: t.params,
        })),
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const w = Math.max(...ts.map((t) => t.id.length));
  for (const t of ts) {
    const tags = [t.profile === '4.x' ? '4.x' : '', ...t.requires].filter(Boolean);
    io.out(`${t.id.padEnd(w)}  ${t.summary}${tags.length ? ` [${tags.join(', ')}]` : ''}\n`);
    io.out(
      `${''.padEnd(w)}  params: ${t.params.map((p) => `${p.name}=${Array.isArray(p.default) ? p.default.join(',') : String(p.default)}`).join(' ')}\n`,
    );
  }
  return 0;
}
