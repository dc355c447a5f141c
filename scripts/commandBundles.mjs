/**
 * Commands the package also builds as a bundle of their own (lib/NAME/retry-studio.js), which the
 * bin loads when the command line starts with NAME. The main bundle is split into chunks shared by
 * its 19 lazily loaded commands: `lint` loaded 28 files, and each ESM module costs Node 20 a
 * resolve, a file read and a link. Its own bundle loads 6 (a small lint's start 37 -> 25 ms beyond
 * Node's own, measured on the shared machine). Built from the same
 * entry (bin/retryStudio.ts) with every other command left out, the one command loads a few files
 * and behaves as in the main bundle (its help, errors and exit codes come from the same runCli).
 */

/** command name -> its module as the command registry imports it (cli/commandRegistry.ts) */
export const OWN_BUNDLES = { lint: './commands/lint.js' };

/**
 * An esbuild plugin: the command registry's dynamic imports of the other commands' modules stay
 * unresolved (external). The bin sends only `NAME ...` to this bundle, so they never run here.
 */
export function onlyCommand(name) {
  const keep = OWN_BUNDLES[name];
  if (!keep) throw new Error(`no own bundle for command ${name}`);
  return {
    name: `only-command-${name}`,
    setup(b) {
      b.onResolve({ filter: /^\.\/commands\// }, (args) =>
        args.kind === 'dynamic-import' && args.importer.endsWith('/cli/commandRegistry.ts') && args.path !== keep
          ? { path: args.path, external: true }
          : undefined,
      );
    },
  };
}

/** The bin's import of the bundle that runs this command line. */
export const binImport = () =>
  `const own = ${JSON.stringify(Object.keys(OWN_BUNDLES))};\n` +
  "await import(own.includes(process.argv[2]) ? `../lib/${process.argv[2]}/retry-studio.js` : '../lib/retry-studio.js');\n";
