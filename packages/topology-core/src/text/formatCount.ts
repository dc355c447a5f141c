/**
 * A whole number for people, in groups of three: "1,002". The same text as
 * `n.toLocaleString('en-US')`, without it: the first call of toLocaleString loads ICU's number
 * formatting, about 10 ms of a short command's start (a `lint` run prints or builds such counts).
 * Anything but a safe integer (a fraction, -0, Infinity, NaN) still goes to toLocaleString.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
