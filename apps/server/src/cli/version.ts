/** The tool's version: set by the package build, else read from the workspace's package.json. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

declare const __RETRY_STUDIO_VERSION__: string | undefined;

export function toolVersion(): string {
  if (typeof __RETRY_STUDIO_VERSION__ === 'string') return __RETRY_STUDIO_VERSION__;
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../package.json', import.meta.url)), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
