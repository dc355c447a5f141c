/** `a, b, c, ... and 4 more`: the first `shown` names and a count of the rest, so a count and its names always agree. */
export function nameList(names: readonly string[], shown = 8): string {
  return names.slice(0, shown).join(', ') + (names.length > shown ? `, ... and ${names.length - shown} more` : '');
}
