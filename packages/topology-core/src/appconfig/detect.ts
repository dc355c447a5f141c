/**
 * Which framework a file is written for, from its name and text. Spring's configuration files
 * may hold Spring Boot's listener settings, Spring Cloud Stream bindings, or both.
 */
import type { AppFramework } from '../model/source.js';
import { readConfigText } from './configText.js';
import { hasBootListener } from './springBoot.js';
import { hasStreamBindings } from './springCloudStream.js';
import { looksLikeMassTransit } from './massTransit.js';
import { looksLikeNServiceBus } from './nServiceBus.js';
import { looksLikeCelery } from './celery.js';
import { looksLikeSpringAmqpJava } from './springAmqpJava.js';
import { AppConfigFailure, type AppFile, type ReadOptions } from './types.js';

export type FileKind = 'spring-config' | 'java' | 'csharp' | 'python' | 'json';

/** The kind of file by its extension; undefined: not one the readers know. */
export function fileKind(name: string): FileKind | undefined {
  if (/\.(ya?ml|properties)$/i.test(name)) return 'spring-config';
  if (/\.(java|kt)$/i.test(name)) return 'java';
  if (/\.cs$/i.test(name)) return 'csharp';
  if (/\.py$/i.test(name)) return 'python';
  if (/\.json$/i.test(name)) return 'json';
  return undefined;
}

/** An application-configuration file (not a JSON design or definitions file) that import-app reads. */
export const isAppConfigFile = (name: string): boolean => {
  const k = fileKind(name);
  return k !== undefined && k !== 'json';
};

/** The frameworks a file is written for (several for a Spring file with both sides). */
export function detectFrameworks(file: AppFile, opts: ReadOptions = {}): AppFramework[] {
  switch (fileKind(file.name)) {
    case 'spring-config': {
      const v = readConfigText(file.name, file.text, opts.springProfiles);
      const out: AppFramework[] = [];
      if (hasStreamBindings(v)) out.push('spring-cloud-stream');
      if (hasBootListener(v)) out.push('spring-boot');
      return out;
    }
    case 'java':
      return looksLikeSpringAmqpJava(file.text) ? ['spring-amqp'] : [];
    case 'csharp': {
      const out: AppFramework[] = [];
      if (
        looksLikeNServiceBus(file.text) &&
        /EndpointConfiguration\s*\(|\.\s*(?:Recoverability|FirstLevelRetries|SecondLevelRetries)\s*\(/.test(file.text)
      )
        out.push('nservicebus');
      if (
        looksLikeMassTransit(file.text) &&
        /ReceiveEndpoint\s*\(|AddConsumer\s*<|(?:Consumer|Saga)Definition\s*</.test(file.text)
      )
        out.push('masstransit');
      return out;
    }
    case 'python':
      return looksLikeCelery(file.text) ? ['celery'] : [];
    default:
      throw new AppConfigFailure({
        file: file.name,
        message:
          'unknown kind of file: expected application.yml/.yaml/.properties, Java (.java), C# (.cs) or Python (.py), or a definitions JSON with --definitions',
      });
  }
}

/** The extensions each framework is read from (an explicit --framework must fit the file). */
export const FRAMEWORK_FILE_KINDS: Readonly<Record<AppFramework, FileKind>> = {
  'spring-boot': 'spring-config',
  'spring-cloud-stream': 'spring-config',
  'spring-amqp': 'java',
  masstransit: 'csharp',
  nservicebus: 'csharp',
  celery: 'python',
};
