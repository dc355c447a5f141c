// The one-command bundle's plugin on a small tree built here: the registry keeps its own command
// and leaves the others out of the bundle; the bin's import picks the bundle by the command line.
// Run: node --test scripts/commandBundles.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { binImport, onlyCommand, OWN_BUNDLES } from './commandBundles.mjs';

test('a bundle of its own holds its command and leaves the other commands out', async () => {
  const root = mkdtempSync(join(tmpdir(), 'command-bundles-'));
  const files = {
    'cli/commandRegistry.ts':
      "export const COMMANDS = [\n  { name: 'lint', load: () => import('./commands/lint.js') },\n  { name: 'serve', load: () => import('./commands/serve.js') },\n];\n",
    'cli/commands/lint.ts': "export const usage = 'LINT-USAGE';\n",
    'cli/commands/serve.ts': "export const usage = 'SERVE-USAGE';\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  try {
    const r = await build({
      entryPoints: { main: join(root, 'cli/commandRegistry.ts') },
      outdir: join(root, 'out'),
      bundle: true,
      splitting: true,
      format: 'esm',
      write: false,
      plugins: [onlyCommand('lint')],
      logLevel: 'silent',
    });
    const text = r.outputFiles.map((f) => f.text).join('\n');
    assert.match(text, /LINT-USAGE/);
    assert.doesNotMatch(text, /SERVE-USAGE/);
    assert.match(
      text,
      /import\("\.\/commands\/serve\.js"\)/,
      'the other command stays an import nothing in this bundle answers',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('only a command with its module named gets a bundle', () => {
  assert.equal(OWN_BUNDLES.lint, './commands/lint.js');
  assert.throws(() => onlyCommand('serve'), /no own bundle for command serve/);
});

test("the bin's import sends NAME ... to lib/NAME and everything else to the main bundle", async () => {
  const pick = (argv) => {
    const body = binImport().replace('await import(', 'return (').replaceAll('process.argv', 'argv');
    return new Function('argv', body)(argv);
  };
  assert.equal(pick(['node', 'bin', 'lint', 'x.json']), '../lib/lint/retry-studio.js');
  assert.equal(pick(['node', 'bin', 'serve']), '../lib/retry-studio.js');
  assert.equal(pick(['node', 'bin']), '../lib/retry-studio.js');
});
