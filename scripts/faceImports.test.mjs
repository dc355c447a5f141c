// The package's face-import rewrite on small trees built here: what it rewrites, what it leaves,
// and that a split bundle's entry then loads only the files it uses.
// Run: node --test scripts/faceImports.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { createFaceResolver } from './faceImports.mjs';

/** A throwaway tree: { 'path/inside.ts': 'text' }. */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'face-imports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const CORE = {
  'core/sizing/index.ts':
    "export { small, type Size } from './small.js';\nexport {\n  big as large,\n  bigger,\n} from './big.js';\nexport { cost } from '../calc/index.js';\n",
  'core/sizing/small.ts': 'export type Size = number;\nexport const small = (n: number): number => n + 1;\n',
  'core/sizing/big.ts':
    "import { heavy } from '../heavy.js';\nexport const big = (n: number): number => heavy(n);\nexport const bigger = (n: number): number => heavy(n) * 2;\n",
  'core/heavy.ts': "export const heavy = (n: number): number => n * 1000;\nconsole.log('heavy loaded');\n",
  'core/calc/index.ts': "export { cost } from './cost.js';\n",
  'core/calc/cost.ts': 'export const cost = (n: number): number => n * 3;\n',
  'core/star/index.ts': "export * from './x.js';\n",
  'core/star/x.ts': 'export const x = 1;\n',
};

function resolverFor(root) {
  return createFaceResolver((spec) =>
    spec.startsWith('@core/') ? join(root, 'core', spec.slice('@core/'.length), 'index.ts') : undefined,
  );
}

test('a named import from a face becomes imports from the defining files, through nested faces', () => {
  const root = tree(CORE);
  try {
    const rewrite = resolverFor(root);
    const src =
      "import {\n  small,\n  large as l,\n  cost,\n  type Size,\n} from '@core/sizing';\nconst s: Size = small(l(cost(1)));\n";
    const out = rewrite(src, root);
    assert.ok(out, 'rewritten');
    assert.match(out, new RegExp(`import \\{ small \\} from "${join(root, 'core/sizing/small.ts')}";`));
    assert.match(out, new RegExp(`import \\{ big as l \\} from "${join(root, 'core/sizing/big.ts')}";`));
    assert.match(out, new RegExp(`import \\{ cost \\} from "${join(root, 'core/calc/cost.ts')}";`));
    assert.doesNotMatch(out, /@core\/sizing/);
    // the rest of the file keeps its line numbers
    assert.equal(out.split('\n').length, src.split('\n').length);
    assert.equal(out.split('\n').at(-2), 'const s: Size = small(l(cost(1)));');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('an import is left as written when a name is not a named re-export, or the face is not a face', () => {
  const root = tree(CORE);
  try {
    const rewrite = resolverFor(root);
    assert.equal(rewrite("import { small, nothing } from '@core/sizing';\n", root), undefined);
    assert.equal(rewrite("import { x } from '@core/star';\n", root), undefined);
    assert.equal(rewrite("import { small } from './elsewhere.js';\n", root), undefined);
    assert.equal(rewrite("import type { Size } from '@core/sizing';\n", root), undefined);
    assert.equal(rewrite("import * as sizing from '@core/sizing';\n", root), undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('with splitting, an entry that imports one name of a face no longer loads what another entry uses', async () => {
  const root = tree({
    ...CORE,
    'app/light.ts': "import { small } from '@core/sizing';\nexport const run = (): number => small(1);\n",
    'app/heavyUser.ts': "import { bigger } from '@core/sizing';\nexport const run = (): number => bigger(1);\n",
  });
  const rewrite = resolverFor(root);
  const plugin = {
    name: 'face-imports-test',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const contents = rewrite(readFileSync(args.path, 'utf8'), dirname(args.path));
        return contents === undefined ? undefined : { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
      b.onResolve({ filter: /^@core\// }, (args) => ({ path: join(root, 'core', args.path.slice(6), 'index.ts') }));
    },
  };
  const loaded = async (plugins) => {
    const r = await build({
      entryPoints: { light: join(root, 'app/light.ts'), heavy: join(root, 'app/heavyUser.ts') },
      outdir: join(root, 'out'),
      bundle: true,
      splitting: true,
      format: 'esm',
      write: false,
      metafile: true,
      plugins,
      logLevel: 'silent',
      absWorkingDir: root,
    });
    // every file the light entry loads, following its static imports
    const outs = r.metafile.outputs;
    const seen = new Set();
    const visit = (f) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const i of outs[f].imports) if (i.kind === 'import-statement' && outs[i.path]) visit(i.path);
    };
    visit(Object.keys(outs).find((k) => k.endsWith('/light.js')));
    return r.outputFiles
      .filter((f) => seen.has(f.path.slice(root.length + 1)))
      .map((f) => f.text)
      .join('\n');
  };
  try {
    const passthrough = {
      name: 'faces-as-written',
      setup(b) {
        b.onResolve({ filter: /^@core\// }, (args) => ({ path: join(root, 'core', args.path.slice(6), 'index.ts') }));
      },
    };
    // as written, the face's re-export of big.ts makes the light entry load heavy.ts too
    assert.match(await loaded([passthrough]), /heavy loaded/);
    const narrow = await loaded([plugin]);
    assert.match(narrow, /n \+ 1/, 'the light entry still has what it uses');
    assert.doesNotMatch(narrow, /heavy loaded/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
