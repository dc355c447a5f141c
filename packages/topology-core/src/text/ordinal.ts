/** English ordinals for the explanations: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 112th. */
export function ordinal(n: number): string {
  const abs = Math.abs(Math.trunc(n));
  const teen = abs % 100;
  const suffix =
    teen >= 11 && teen <= 13 ? 'th' : abs % 10 === 1 ? 'st' : abs % 10 === 2 ? 'nd' : abs % 10 === 3 ? 'rd' : 'th';
  return `${Math.trunc(n)}${suffix}`;
}
