/** The design document as JSON text: read (parse + migrate + validate) and write (stable). */
import type { Design } from '../model/design.js';
import { parseDesign, type ParseDesignResult } from '../model/validateDesign.js';

export function readDesignJson(text: string): ParseDesignResult {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      errors: [{ path: '', code: 'json-syntax', message: `not valid JSON: ${(e as Error).message}` }],
      warnings: [],
    };
  }
  return parseDesign(v);
}

/** Pretty JSON with keys in a fixed order at the top level, so diffs stay small. */
export function writeDesignJson(d: Design): string {
  const { format, version, name, description, profile, origin, topology, consumers, publishers, layout, ...rest } = d;
  const ordered = {
    format,
    version,
    name,
    description,
    profile,
    origin,
    topology,
    consumers,
    publishers,
    layout,
    ...rest,
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}
