/**
 * A small YAML writer for JSON-shaped values (block style). Strings are always written as
 * JSON double-quoted scalars, which YAML reads back unchanged ("yes", "0x1", "null" stay
 * strings), and so are keys that are not plain identifiers.
 */
export type YamlValue = string | number | boolean | null | readonly YamlValue[] | { readonly [k: string]: YamlValue };

const scalar = (v: string | number | boolean | null): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const key = (k: string): string =>
  /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(k) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(k) ? k : JSON.stringify(k);
const isEmpty = (v: YamlValue): boolean =>
  Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0;
const inline = (v: YamlValue): string =>
  Array.isArray(v) ? '[]' : typeof v === 'object' && v !== null ? '{}' : scalar(v as string);

function lines(v: YamlValue, indent: string): string[] {
  if (Array.isArray(v)) {
    return (v as readonly YamlValue[]).flatMap((item) => {
      if (typeof item !== 'object' || item === null || isEmpty(item)) return [`${indent}- ${inline(item)}`];
      const [first = '', ...rest] = lines(item, `${indent}  `);
      return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest];
    });
  }
  return Object.entries(v as { readonly [k: string]: YamlValue }).flatMap(([k, x]) =>
    typeof x === 'object' && x !== null && !isEmpty(x)
      ? [`${indent}${key(k)}:`, ...lines(x, `${indent}  `)]
      : [`${indent}${key(k)}: ${inline(x)}`],
  );
}

/** One YAML document (no leading `---`), ending with a newline. */
export function yamlDocument(v: { readonly [k: string]: YamlValue }): string {
  return lines(v, '').join('\n') + '\n';
}

/** `# ...` comment lines for a YAML or HCL file. */
export function hashComments(text: readonly string[]): string {
  return text.map((t) => `# ${t}`.trimEnd() + '\n').join('');
}
