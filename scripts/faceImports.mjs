/**
 * An esbuild plugin for the package: a named import from one of topology-core's faces
 * (`@retry-studio/topology-core/sizing`, or a `../rehearse/index.js` inside the core) becomes an
 * import from the files that define those names. esbuild splits chunks by the files an entry's
 * imports reach, following every re-export of a face whether it is used or not: through
 * `cli/commands/workBudget.ts`'s `checkBudget` from the sizing face, `lint` loaded the rehearsal,
 * the tuner, the templates and the calibration data (~150 KB of its 450 KB). The faces stay the one
 * way the apps import the core; only the bundle is narrower.
 *
 * An import is rewritten only when every name it takes is a named re-export (`export { a, b as c }
 * from './x.js'`) of the face, followed through faces that re-export faces; otherwise it is left
 * as written (a face with `export *`, a namespace import, a type without `type`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'([^']+)';/gm;
const REEXPORT = /^export\s*\{([^}]*)\}\s*from\s*'([^']+)';/gm;

/** `a`, `b as c`, `type T` -> { name (as the module exports it), local, type } */
function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const type = /^type\s/.test(s);
      const [name, local = name] = s.replace(/^type\s+/, '').split(/\s+as\s+/);
      return { name: name.trim(), local: local.trim(), type };
    });
}

/** a module path as written ('./x.js') -> the TypeScript file beside `from` */
function tsFile(fromDir, spec) {
  const p = resolve(fromDir, spec);
  const ts = p.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : existsSync(p) ? p : undefined;
}

/**
 * The faces' named re-exports: name -> { file, name } where it is defined (through faces that
 * re-export other faces). `faceOf(spec, fromDir)` says which face file an import names, if any.
 */
export function createFaceResolver(faceOf) {
  const faces = new Map();
  const isFace = (file) => file.endsWith('/index.ts');
  const exportsOf = (face) => {
    let map = faces.get(face);
    if (map) return map;
    map = new Map();
    faces.set(face, map);
    const text = readFileSync(face, 'utf8');
    for (const [, list, spec] of text.matchAll(REEXPORT)) {
      const file = tsFile(dirname(face), spec);
      if (!file) continue;
      for (const s of specifiers(list)) {
        if (s.type) continue;
        const inner = isFace(file) ? exportsOf(file).get(s.name) : { file, name: s.name };
        if (inner) map.set(s.local, inner);
      }
    }
    return map;
  };
  /** the source with its face imports pointed at the defining files; undefined when nothing changes */
  return function rewrite(source, fromDir) {
    let changed = false;
    const out = source.replace(IMPORT, (whole, list, spec) => {
      const face = faceOf(spec, fromDir);
      if (!face) return whole;
      const names = exportsOf(face);
      const wanted = specifiers(list).filter((s) => !s.type);
      if (wanted.length === 0 || !wanted.every((s) => names.has(s.name))) return whole;
      const byFile = new Map();
      for (const s of wanted) {
        const at = names.get(s.name);
        const l = byFile.get(at.file) ?? [];
        l.push(at.name === s.local ? at.name : `${at.name} as ${s.local}`);
        byFile.set(at.file, l);
      }
      changed = true;
      // one line per file, so that line numbers of the rest of the file stay as they are
      return [...byFile]
        .map(([file, l]) => `import { ${l.join(', ')} } from ${JSON.stringify(file)};`)
        .join(' ')
        .concat('\n'.repeat((whole.match(/\n/g) ?? []).length));
    });
    return changed ? out : undefined;
  };
}

/** The plugin: the core's faces as its package.json `exports` name them, and `.../index.js` imports inside the core. */
export function faceImports(root) {
  const core = join(root, 'packages/topology-core');
  const coreSrc = join(core, 'src');
  const exportsMap = JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')).exports;
  const faceOf = (spec, fromDir) => {
    if (spec === '@retry-studio/topology-core' || spec.startsWith('@retry-studio/topology-core/')) {
      const target = exportsMap[`.${spec.slice('@retry-studio/topology-core'.length)}`];
      return typeof target === 'string' && target.endsWith('/index.ts') ? join(core, target) : undefined;
    }
    if (fromDir.startsWith(coreSrc) && spec.startsWith('.') && spec.endsWith('/index.js')) return tsFile(fromDir, spec);
    return undefined;
  };
  const rewrite = createFaceResolver(faceOf);
  return {
    name: 'face-imports',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const contents = rewrite(source, dirname(args.path));
        return contents === undefined ? undefined : { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}
