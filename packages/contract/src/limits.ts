/** Limits both sides know: the server refuses beyond them, the web offers no more. */

/** the most messages one browse reads */
export const MAX_BROWSE = 10_000;

/**
 * The slowest re-drive rate: one message per 24 days. A timer cannot wait longer (2^31 - 1 ms,
 * about 24.8 days; a longer one fires at once), so a rate of 1e-9 msg/s would run at full speed.
 */
export const MIN_RATE_PER_SECOND = 1 / (24 * 24 * 3600);

/** the minimum rate as said in an error */
export const MIN_RATE_TEXT = `${MIN_RATE_PER_SECOND.toPrecision(2)} messages per second (one per 24 days: a timer cannot wait longer)`;
