/** Untrusted design JSON -> a valid Design, or a 400 naming the field (`design.queues[2]...`). */
import { parseDesign, utf8ByteLength, type Design } from '@retry-studio/topology-core/model';
import type { Request, Response } from 'express';
import type { AppContext } from './appContext.js';
import { runHeavy } from './heavyRoute.js';
import { HttpError } from './httpError.js';

export function designFromRequest(
  input: unknown,
  exchangeTypes?: readonly string[],
): { design: Design; warnings: readonly { path: string; message: string }[] } {
  if (input === undefined) throw new HttpError(400, 'design is required', 'design');
  const r = parseDesign(input, exchangeTypes ? { exchangeTypes } : {});
  if (!r.ok) {
    const e = r.errors[0]!;
    throw new HttpError(400, e.message, e.path ? `design.${e.path}` : 'design', {
      errors: r.errors
        .slice(0, 50)
        .map((x) => ({ field: x.path ? `design.${x.path}` : 'design', message: x.message, code: x.code })),
    });
  }
  return { design: r.design, warnings: r.warnings.map((w) => ({ path: `design.${w.path}`, message: w.message })) };
}

/** a body above this is read as a design in a worker thread: below it the check takes a few ms */
export const DESIGN_OFF_LOOP_BYTES = 256 * 1024;

/** designFromRequest, in a worker thread when the request is big (its body's size) */
export async function designOffLoop(
  ctx: AppContext,
  req: Request,
  res: Response,
  input: unknown,
): Promise<ReturnType<typeof designFromRequest>> {
  if (Number(req.headers['content-length'] ?? 0) <= DESIGN_OFF_LOOP_BYTES) return designFromRequest(input);
  return JSON.parse(await runHeavy(ctx, req, res, 'design', input)) as ReturnType<typeof designFromRequest>;
}

/** With the prefix applied, every name must still fit in 255 bytes. */
export function checkPrefixedNames(design: Design, prefix: string): void {
  const check = (name: string, field: string) => {
    const bytes = utf8ByteLength(prefix + name);
    if (bytes > 255)
      throw new HttpError(
        400,
        `with the prefix '${prefix}' this name is ${bytes} bytes of UTF-8; the limit is 255`,
        field,
      );
  };
  design.topology.exchanges.forEach((e, i) => check(e.name, `design.topology.exchanges[${i}].name`));
  design.topology.queues.forEach((q, i) => check(q.name, `design.topology.queues[${i}].name`));
}
