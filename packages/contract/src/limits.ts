/** Limits both sides know: the server refuses beyond them, the web offers no more. */

/** the most messages one browse reads */
export const MAX_BROWSE = 10_000;
