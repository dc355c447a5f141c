/** Whether a command is on this machine (the runners' runtimes: java, mvn, python3), asked once. */
import { spawnSync } from 'node:child_process';

const known = new Map<string, boolean>();

export function hasCommand(cmd: string, versionArg = '--version'): boolean {
  let v = known.get(cmd);
  if (v === undefined) {
    const r = spawnSync(cmd, [versionArg], { stdio: 'ignore', timeout: 20_000 });
    v = r.error === undefined && r.status === 0;
    known.set(cmd, v);
  }
  return v;
}

/** how the project installs what the runners need */
export const INSTALL_HINT = 'bash scripts/ensure-provers.sh installs it (./run.sh test runs it)';

/** the runners' projects live in the repository (apps/server/src/prove/runners), not in the installed package */
export const NOT_IN_PACKAGE =
  "prove-app's runners are not part of the installed package: run it from the repository (pnpm prove-app)";
