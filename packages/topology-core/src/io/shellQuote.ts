/** POSIX single-quoting for generated shell scripts: safe for any name, including quotes, spaces and `$`. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
