/**
 * Helpers for the TypeScript the exporters generate (setup scripts, consumer skeletons).
 * The generated files import amqplib; this package never does.
 */

/** An import line of a generated file (bindings, then the module name). */
export function generatedImport(bindings: string, moduleName: string): string {
  return `import ${bindings} from '${moduleName}';`;
}

/** The amqplib client module the generated code runs on. */
export const AMQP_CLIENT_MODULE = 'amqplib';
