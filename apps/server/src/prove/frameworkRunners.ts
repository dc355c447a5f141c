/** Every framework prove-app runs, one registered object each (as import-app names the framework). */
import type { FrameworkRunner } from './frameworkRunner.js';
import { ProofError } from './proofError.js';
import { SPRING_RUNNERS } from './springRunners.js';
import { CELERY_RUNNER } from './celeryRunner.js';
import { RASCAL_RUNNER } from './rascalRunner.js';
import { NESTJS_RUNNER } from './nestjsRunner.js';

export const FRAMEWORK_RUNNERS: readonly FrameworkRunner[] = [
  ...SPRING_RUNNERS,
  CELERY_RUNNER,
  RASCAL_RUNNER,
  NESTJS_RUNNER,
];

/** the frameworks --framework takes */
export const PROVABLE_FRAMEWORKS: readonly string[] = [...new Set(FRAMEWORK_RUNNERS.map((r) => r.framework))];

export function runnerFor(framework: string, variant: string | undefined): FrameworkRunner {
  const of = FRAMEWORK_RUNNERS.filter((r) => r.framework === framework);
  if (of.length === 0)
    throw new ProofError(
      `prove-app does not run ${framework} (it runs ${PROVABLE_FRAMEWORKS.join(', ')}): import-app's reading of it is not checked here`,
    );
  const variants = of.filter((r) => r.variant !== undefined).map((r) => r.variant!);
  if (variant === undefined) return of[0]!;
  const r = of.find((x) => x.variant === variant);
  if (!r)
    throw new ProofError(
      variants.length
        ? `--spring-boot must be one of ${variants.join(', ')}, got ${JSON.stringify(variant)}`
        : `--spring-boot applies to spring-boot configurations, not ${framework}`,
    );
  return r;
}
