import { writeDesignJson } from '@retry-studio/topology-core/io';
import path from 'node:path';
import { parseArgs, value } from './args.js';
import { CliError, loadFileVhosts, writeOutput, type CliIo, type LoadedFile } from './context.js';
import { formatWarnings } from './lintText.js';

export const IMPORT_USAGE =
  'import FILE [--vhost V] [--name NAME] [--out FILE]   definitions (or design) JSON -> design JSON; a file with several vhosts gives one design per vhost (FILE.VHOST.json with --out, else a JSON array)';

/** `out.json` + vhost `a/b` -> `out.a_b.json`: one design file per vhost. */
export function outFileForVhost(out: string, vhost: string): string {
  const ext = path.extname(out) || '.json';
  const slug = vhost === '/' ? 'default' : vhost.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'vhost';
  return `${out.slice(0, out.length - path.extname(out).length)}.${slug}${ext}`;
}

export async function importCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['vhost', 'name', 'out'], switches: [] });
  const file = a.positionals[0];
  if (!file || a.positionals.length > 1) throw new CliError(`usage: ${IMPORT_USAGE}`, 2);
  const docs = await loadFileVhosts(io, file, { vhost: value(a, 'vhost') });
  const name = value(a, 'name');
  const several = docs.length > 1;
  const named = (doc: LoadedFile) =>
    name ? { ...doc.design, name: several ? `${name} (${doc.vhost})` : name } : doc.design;
  for (const doc of docs) {
    const t = doc.design.topology;
    const where = doc.vhost !== undefined ? ` in vhost ${JSON.stringify(doc.vhost)}` : '';
    io.err(
      `${file}: ${doc.kind}; ${t.exchanges.length} exchanges, ${t.queues.length} queues, ${t.bindings.length} bindings${t.policies?.length ? `, ${t.policies.length} policies` : ''}${where}\n`,
    );
    if (doc.warnings.length) io.err(`warnings:\n${formatWarnings(doc.warnings)}\n`);
  }
  const out = value(a, 'out');
  if (!several) {
    await writeOutput(io, out, writeDesignJson(named(docs[0]!)));
    return 0;
  }
  if (out) {
    for (const doc of docs) await writeOutput(io, outFileForVhost(out, doc.vhost!), writeDesignJson(named(doc)));
    return 0;
  }
  io.err(
    `${file} has objects in ${docs.length} vhosts: printing one design per vhost as a JSON array (--out FILE writes FILE.VHOST.json each; --vhost V picks one)\n`,
  );
  io.out(`[\n${docs.map((d) => writeDesignJson(named(d)).trimEnd()).join(',\n')}\n]\n`);
  return 0;
}
