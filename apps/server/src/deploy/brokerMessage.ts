/** The broker's own words from an amqplib error (e.g. `PRECONDITION_FAILED - inequivalent arg ...`). */
export function brokerMessage(err: unknown): string {
  const msg = String((err as Error)?.message ?? err);
  const m = /with message "([^"]*)"/.exec(msg);
  if (m) return m[1]!;
  return msg;
}

/** amqplib's errors for RPCs that never ran because the channel had already closed. */
export function isCollateral(err: unknown): boolean {
  const msg = String((err as Error)?.message ?? err);
  return (
    /Channel (ended|closed), no reply will be forthcoming|Channel is closed|channel closed|Connection closed/i.test(
      msg,
    ) && !/with message/.test(msg)
  );
}
