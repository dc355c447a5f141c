/** All retry templates: list, look up, build with parameter checking. */
import type { ValidationIssue } from '../model/validateResult.js';
import { validateDesign } from '../model/validateDesign.js';
import { requeueOnce, quorumDeliveryLimit } from './immediate.js';
import { dlxTtlWaitQueue, republishTtl, chainedTtl, ttlDlqConsumer } from './ttlWait.js';
import { delayedExchange, dlxDelayedRequeue, dlxRequeueConsumer } from './delayed.js';
import { radlxSimple, radlxDelayQueue, radlxCycles, radlxPriorityDlq } from './radlx.js';
import { springStateless, springStateful } from './spring.js';
import { binaryDelayLevels, TemplateParamError } from './binaryDelay.js';
import { quorumDelayedRetry } from './quorumDelayedRetry.js';
import { resolveParams } from './params.js';
import type { BuiltTemplate, RetryTemplate } from './types.js';

export const TEMPLATES: readonly RetryTemplate[] = [
  requeueOnce,
  dlxTtlWaitQueue,
  republishTtl,
  delayedExchange,
  dlxRequeueConsumer,
  dlxDelayedRequeue,
  chainedTtl,
  ttlDlqConsumer,
  radlxSimple,
  radlxDelayQueue,
  radlxCycles,
  radlxPriorityDlq,
  springStateless,
  springStateful,
  quorumDeliveryLimit,
  binaryDelayLevels,
  quorumDelayedRetry,
];

export function listTemplates(): readonly RetryTemplate[] {
  return TEMPLATES;
}

export function getTemplate(id: string): RetryTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

export type BuildTemplateResult =
  | { readonly ok: true; readonly template: BuiltTemplate }
  | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

/** Checks the params (errors name the param), builds, and validates the resulting design. */
export function buildTemplate(id: string, params: { readonly [k: string]: unknown } = {}): BuildTemplateResult {
  const t = getTemplate(id);
  if (!t)
    return {
      ok: false,
      errors: [
        {
          path: 'template',
          code: 'template-unknown',
          message: `unknown template "${id}"; known: ${TEMPLATES.map((x) => x.id).join(', ')}`,
        },
      ],
    };
  const r = resolveParams(t.params, params);
  if (!r.ok) return r;
  let built: BuiltTemplate;
  try {
    built = t.build(r.values);
  } catch (e) {
    if (e instanceof TemplateParamError)
      return { ok: false, errors: [{ path: `params.${e.param}`, code: 'param-invalid', message: e.message }] };
    throw e;
  }
  const v = validateDesign(built.design);
  if (!v.ok) return { ok: false, errors: v.errors };
  return { ok: true, template: built };
}
