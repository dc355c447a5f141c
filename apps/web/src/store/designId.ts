/** Ids of named designs: short, unique enough for one browser's storage, usable in a storage key. */
export function newDesignId(): string {
  return `d${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
