// The structure check on small trees built here: each offence it must catch, and what it must let pass.
// Run: node --test scripts/check-structure.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkStructure, MAX_FUNCTION_LINES, MAX_LINES } from './check-structure.mjs';

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-structure.mjs');
const CORE = 'packages/topology-core/src';
const WEB = 'apps/web/src';
const none = { longFiles: [], longFunctions: [], circles: [] };

/** A throwaway repository tree: { 'path/inside.ts': 'text' }. */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'structure-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(files, options = none) {
  const root = tree(files);
  try {
    return checkStructure(root, options);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const lines = (n) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';

test('a tree whose imports point one way passes', () => {
  const problems = check({
    [`${CORE}/model/a.ts`]: 'export const a = 1;\n',
    [`${CORE}/sim/b.ts`]: "import { a } from '../model/a.js';\nexport const b = a + 1;\n",
    [`${CORE}/index.ts`]: "export { b } from './sim/b.js';\n",
    [`${WEB}/store/s.ts`]: 'export const s = 1;\n',
    [`${WEB}/panels/p.ts`]: "import { s } from '../store/s';\nexport const p = s;\n",
  });
  assert.deepEqual(problems, []);
});

test('a runtime circle between two core files is named, file by file', () => {
  const problems = check({
    [`${CORE}/sim/a.ts`]: "import { b } from './b.js';\nexport const a = () => b();\n",
    [`${CORE}/sim/b.ts`]: "import { a } from './a.js';\nexport const b = () => a();\n",
  });
  assert.equal(problems.length, 1);
  assert.match(problems[0], /import circle between files/);
  assert.match(problems[0], /sim\/a\.ts -> .*sim\/b\.ts -> .*sim\/a\.ts/);
});

test('type-only imports, and imports of types only, make no circle', () => {
  const problems = check({
    [`${CORE}/sim/a.ts`]: "import type { B } from './b.js';\nexport interface A { b?: B }\nexport const a = 1;\n",
    [`${CORE}/sim/b.ts`]: "import { a, A } from './a.js';\nexport interface B { a?: A }\nexport const b = a;\n",
    [`${CORE}/sim/c.ts`]: "import { D } from './d.js';\nexport interface C { d?: D }\nexport const c = 1;\n",
    [`${CORE}/sim/d.ts`]: "import { c, type C } from './c.js';\nexport interface D { c?: C }\nexport const d = c;\n",
  });
  assert.deepEqual(problems, []);
});

test('a circle between core folders is named with the import behind each step', () => {
  const problems = check({
    [`${CORE}/routing/route.ts`]: "import { hold } from '../sim/hold.js';\nexport const route = () => hold;\n",
    [`${CORE}/sim/hold.ts`]: 'export const hold = 1;\n',
    [`${CORE}/sim/run.ts`]: "import { route } from '../routing/route.js';\nexport const run = route;\n",
  });
  const circle = problems.find((p) => p.includes('import circle between folders'));
  assert.ok(circle, problems.join('\n'));
  assert.match(circle, /routing -> sim -> routing|sim -> routing -> sim/);
  assert.match(circle, /routing\/route\.ts:1 imports .*sim\/hold\.ts/);
  // and routing imports sim, a floor above it
  assert.ok(
    problems.some((p) => /routing imports a higher floor, sim/.test(p)),
    problems.join('\n'),
  );
});

test('a core folder importing a higher floor fails even without a circle', () => {
  const problems = check({
    [`${CORE}/model/topology.ts`]: "import { simulate } from '../sim/simulate.js';\nexport const t = simulate;\n",
    [`${CORE}/sim/simulate.ts`]: 'export const simulate = 1;\n',
  });
  assert.equal(problems.length, 1);
  assert.match(problems[0], /packages\/topology-core\/src\/model imports a higher floor, sim: .*model\/topology\.ts:1/);
});

test('a core folder with no floor fails, naming it', () => {
  const problems = check({
    [`${CORE}/model/a.ts`]: 'export const a = 1;\n',
    [`${CORE}/gadgets/g.ts`]: "import { a } from '../model/a.js';\nexport const g = a;\n",
  });
  assert.equal(problems.length, 1);
  assert.match(problems[0], /packages\/topology-core\/src\/gadgets has no floor/);
});

test("a circle between the web's folders fails unless it is listed as being cut", () => {
  const files = {
    [`${WEB}/canvas/Canvas.tsx`]:
      "import { useLint } from '../panels/useLint';\nexport const Canvas = () => useLint();\n",
    [`${WEB}/panels/useLint.ts`]: 'export const useLint = () => 1;\n',
    [`${WEB}/panels/Inspector.tsx`]:
      "import { nodes } from '../canvas/nodes';\nexport const Inspector = () => nodes;\n",
    [`${WEB}/canvas/nodes.tsx`]: 'export const nodes = 1;\n',
  };
  const problems = check(files);
  assert.equal(problems.length, 1);
  assert.match(
    problems[0],
    /import circle between folders of apps\/web\/src: (canvas -> panels -> canvas|panels -> canvas -> panels)/,
  );
  assert.deepEqual(check(files, { longFiles: [], circles: ['apps/web/src: canvas <-> panels'] }), []);
});

test(`a source file over ${MAX_LINES} lines fails; tests, testing/ builders and listed files do not`, () => {
  const files = {
    'apps/server/src/long.ts': lines(MAX_LINES + 1),
    'apps/server/src/fits.ts': lines(MAX_LINES),
    'apps/server/src/long.test.ts': lines(MAX_LINES + 50),
    'packages/topology-core/testing/builders.ts': lines(MAX_LINES + 50),
    'e2e/flows/long.ts': lines(MAX_LINES + 2),
    'apps/web/src/panels/Big.tsx': lines(MAX_LINES + 3),
  };
  const problems = check(files);
  assert.equal(problems.length, 3, problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith(`apps/server/src/long.ts: ${MAX_LINES + 1} lines`)));
  assert.ok(problems.some((p) => p.startsWith('e2e/flows/long.ts')));
  assert.ok(problems.some((p) => p.startsWith('apps/web/src/panels/Big.tsx')));
  assert.equal(
    check(files, {
      longFiles: ['apps/server/src/long.ts', 'e2e/flows/long.ts', 'apps/web/src/panels/Big.tsx'],
      circles: [],
    }).length,
    0,
  );
});

/** A function `name` spanning exactly n lines, first to last. */
const fn = (name, n) => `export function ${name}(): number {\n` + '  let x = 0;\n'.repeat(n - 3) + '  return x;\n}\n';

test(`a function over ${MAX_FUNCTION_LINES} lines fails, named with its line; tests and listed ones do not`, () => {
  const arrow = (n) => 'export const Panel = () => {\n' + '  void 0;\n'.repeat(n - 2) + '};\n';
  const files = {
    'packages/topology-core/src/model/long.ts': 'export const a = 1;\n' + fn('tooLong', MAX_FUNCTION_LINES + 1),
    'packages/topology-core/src/model/fits.ts': fn('fits', MAX_FUNCTION_LINES),
    'apps/web/src/panels/Panel.tsx': arrow(MAX_FUNCTION_LINES + 2),
    'apps/server/src/long.test.ts': fn('testHelper', MAX_FUNCTION_LINES + 20),
  };
  const problems = check(files);
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.ok(
    problems.includes(
      `packages/topology-core/src/model/long.ts:2 tooLong: ${MAX_FUNCTION_LINES + 1} lines, over ${MAX_FUNCTION_LINES} (split it)`,
    ),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.startsWith(`apps/web/src/panels/Panel.tsx:1 Panel: ${MAX_FUNCTION_LINES + 2} lines`)),
  );
  assert.deepEqual(
    check(files, {
      ...none,
      longFunctions: ['packages/topology-core/src/model/long.ts tooLong', 'apps/web/src/panels/Panel.tsx Panel'],
    }),
    [],
  );
});

test('the command exits 1 and names the offence; 0 on a clean tree', () => {
  const bad = tree({
    [`${CORE}/sim/a.ts`]: "import { b } from './b.js';\nexport const a = () => b();\n",
    [`${CORE}/sim/b.ts`]: "import { a } from './a.js';\nexport const b = () => a();\n",
  });
  const good = tree({ [`${CORE}/sim/a.ts`]: 'export const a = 1;\n' });
  try {
    const failed = spawnSync(process.execPath, [script, '--root', bad], { encoding: 'utf8' });
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /structure: import circle between files in packages\/topology-core\/src: .*sim\/a\.ts/);
    const passed = spawnSync(process.execPath, [script, '--root', good], { encoding: 'utf8' });
    assert.equal(passed.status, 0, passed.stderr);
  } finally {
    rmSync(bad, { recursive: true, force: true });
    rmSync(good, { recursive: true, force: true });
  }
});
