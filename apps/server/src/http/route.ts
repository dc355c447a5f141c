import type { Request, RequestHandler, Response } from 'express';

/** Express 5 forwards rejected promises to the error handler; this keeps handlers terse. */
export const route =
  (fn: (req: Request, res: Response) => Promise<unknown> | unknown): RequestHandler =>
  async (req, res, next) => {
    try {
      await fn(req, res);
    } catch (err) {
      next(err);
    }
  };
