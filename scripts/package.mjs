#!/usr/bin/env node
/**
 * `pnpm package`: builds the installable `retry-studio` package into dist/retry-studio-VERSION.tgz.
 * The server and CLI are bundled by esbuild into ESM chunks (commands load lazily, so `lint`
 * never parses amqplib or express), the built web app sits beside them in web/, and the package
 * has no dependencies to install: `npm install -g ./dist/retry-studio-VERSION.tgz` needs only Node 20.
 *   --no-web-build   reuse apps/web/dist as it is (it must exist)
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { faceImports } from './faceImports.mjs';
import { binImport, onlyCommand, OWN_BUNDLES } from './commandBundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = rootPkg.version;
const out = join(root, 'dist');
const stage = join(out, 'package');
const webDist = join(root, 'apps/web/dist');
const log = (s) => process.stderr.write(`package: ${s}\n`);

const args = process.argv.slice(2);
for (const a of args)
  if (a !== '--no-web-build') {
    process.stderr.write(`package: unknown option ${a} (known: --no-web-build)\n`);
    process.exit(2);
  }

if (!args.includes('--no-web-build')) {
  log('building the web app');
  execFileSync('pnpm', ['--filter', '@retry-studio/web', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
if (!existsSync(join(webDist, 'index.html'))) {
  process.stderr.write('package: apps/web/dist/index.html is missing: build the web app (drop --no-web-build)\n');
  process.exit(1);
}

rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'bin'), { recursive: true });

/**
 * amqplib's frame codec is loaded by path at run time in the workspace (its package exports do
 * not name it: apps/server/src/broker/amqplibInternals.ts); in the bundle it is imported by path.
 */
const amqplibRoot = dirname(createRequire(join(root, 'apps/server/package.json')).resolve('amqplib'));
const amqplibInternals = {
  name: 'amqplib-internals',
  setup(b) {
    b.onLoad({ filter: /amqplibInternals\.ts$/ }, () => ({
      loader: 'js',
      resolveDir: amqplibRoot,
      contents: `import defs from ${JSON.stringify(join(amqplibRoot, 'lib/defs.js'))}; import codec from ${JSON.stringify(join(amqplibRoot, 'lib/codec.js'))}; export const amqpDefs = defs; export const amqpCodec = codec;`,
    }));
  },
};

/** One esbuild build of the server and the CLI into `outdir` (chunks beside it, loaded lazily). */
const bundle = (entryPoints, outdir, plugins = []) =>
  build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    // faceImports: a command loads the core's files it uses, not every file its faces re-export (scripts/faceImports.mjs)
    plugins: [amqplibInternals, faceImports(root), ...plugins],
    logLevel: 'warning',
    define: { __RETRY_STUDIO_VERSION__: JSON.stringify(version) },
    // CommonJS dependencies (express, amqplib) call require() for Node's own modules
    banner: {
      js: "import { createRequire as __rsCreateRequire } from 'node:module'; const require = __rsCreateRequire(import.meta.url);",
    },
  });

log('bundling the server and the CLI');
const cliEntry = join(root, 'apps/server/src/bin/retryStudio.ts');
const result = await bundle(
  {
    'retry-studio': cliEntry,
    // the worker threads' entry for heavy HTTP work (apps/server/src/work/workerEntry.ts looks for lib/heavy-worker.js)
    'heavy-worker': join(root, 'apps/server/src/http/heavyWorker.ts'),
  },
  join(stage, 'lib'),
);
// the commands with a bundle of their own (scripts/commandBundles.mjs)
for (const name of Object.keys(OWN_BUNDLES))
  await bundle({ 'retry-studio': cliEntry }, join(stage, 'lib', name), [onlyCommand(name)]);
writeFileSync(join(out, 'package-meta.json'), JSON.stringify(result.metafile));

// the bin tells `serve` where the web app is (RETRY_STUDIO_WEB_DIST, unless the user set it)
writeFileSync(
  join(stage, 'bin/retry-studio.js'),
  "#!/usr/bin/env node\nimport { fileURLToPath } from 'node:url';\nprocess.env.RETRY_STUDIO_WEB_DIST ??= fileURLToPath(new URL('../web', import.meta.url));\n" +
    binImport(),
  { mode: 0o755 },
);
cpSync(webDist, join(stage, 'web'), { recursive: true });

writeFileSync(
  join(stage, 'package.json'),
  JSON.stringify(
    {
      name: 'retry-studio',
      version,
      description: rootPkg.description,
      type: 'module',
      bin: { 'retry-studio': 'bin/retry-studio.js' },
      engines: rootPkg.engines,
      files: ['bin', 'lib', 'web', 'README.md'],
      license: rootPkg.license ?? 'UNLICENSED',
    },
    null,
    2,
  ) + '\n',
);
writeFileSync(
  join(stage, 'README.md'),
  `# retry-studio ${version}\n\nDesign, simulate, deploy, live-trace and operate RabbitMQ retry topologies.\n\n` +
    '```sh\nretry-studio serve --port 8080     # the web app and the API\nretry-studio lint definitions.json # the retry linter (--format text|json|sarif|github)\nretry-studio --help\n```\n',
);

log('packing');
const packed = execFileSync('npm', ['pack', '--pack-destination', out, '--silent'], { cwd: stage, encoding: 'utf8' })
  .trim()
  .split('\n')
  .at(-1);
const tgz = join(out, packed);
log(`wrote ${relative(process.cwd(), tgz)}`);
process.stdout.write(`${tgz}\n`);
