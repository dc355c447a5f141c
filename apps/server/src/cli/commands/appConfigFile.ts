/**
 * An application's retry configuration read as a design (import-app's reader), for every command
 * that takes a design file. Its own module: context.ts loads it only for a file that may be one.
 */
import { AppConfigFailure, importAppConfig } from '@retry-studio/topology-core/appconfig';
import { CliError, type LoadedFile } from './context.js';

/**
 * An application's retry configuration (application.yml/.properties, Java, C#, Python) read as a
 * design (import-app's reader): every command that takes a design file takes these too. Bad
 * input -> CliError naming the file and line, exit 2.
 */
export function loadAppConfig(
  files: readonly { name: string; text: string }[],
  opts: Parameters<typeof importAppConfig>[1] = {},
): LoadedFile & { notes: readonly { file: string; line: number; text: string }[]; environment?: readonly string[] } {
  try {
    const app = importAppConfig(files, opts);
    return {
      kind: 'app-config',
      design: app.design,
      warnings: [],
      notes: app.notes,
      ...(app.environment ? { environment: app.environment } : {}),
      ...(app.design.vhost !== undefined ? { vhost: app.design.vhost } : {}),
    };
  } catch (e) {
    if (e instanceof AppConfigFailure) throw new CliError(e.message, 2);
    throw e;
  }
}
