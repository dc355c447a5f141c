/** Durations as the frameworks write them, to milliseconds (undefined: not a duration). */

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 };

/** Spring's Duration: `1000` (in the default unit), `500ms`, `2s`, `1m`, ISO-8601 `PT1.5S`. */
export function springDurationMs(text: string, defaultUnit: 'ms' | 's' = 'ms'): number | undefined {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * UNIT_MS[defaultUnit]!);
  const simple = /^(\d+(?:\.\d+)?)\s*(ns|us|ms|s|m|h|d)$/i.exec(t);
  if (simple) return Math.round(Number(simple[1]) * UNIT_MS[simple[2]!.toLowerCase()]!);
  const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(t);
  if (iso && t.length > 1)
    return Math.round(
      (Number(iso[1] ?? 0) * 86400 + Number(iso[2] ?? 0) * 3600 + Number(iso[3] ?? 0) * 60 + Number(iso[4] ?? 0)) *
        1000,
    );
  return undefined;
}

/** .NET's TimeSpan factories as written in C#: `TimeSpan.FromSeconds(5)`, `TimeSpan.FromMilliseconds(200)`, `new TimeSpan(0, 0, 30)`, `TimeSpan.Parse("00:00:30")`. */
export function timeSpanMs(expr: string): number | undefined {
  const e = expr.trim();
  const from = /^TimeSpan\.From(Milliseconds|Seconds|Minutes|Hours|Days)\(\s*(\d+(?:\.\d+)?)\s*\)$/.exec(e);
  if (from) {
    const unit = { Milliseconds: 1, Seconds: 1000, Minutes: 60000, Hours: 3600000, Days: 86400000 }[
      from[1] as 'Seconds'
    ];
    return Math.round(Number(from[2]) * unit);
  }
  const ctor = /^new\s+TimeSpan\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(e);
  if (ctor) return ((Number(ctor[1]) * 60 + Number(ctor[2])) * 60 + Number(ctor[3])) * 1000;
  const parse = /^TimeSpan\.Parse\(\s*"(\d+):(\d+):(\d+(?:\.\d+)?)"\s*\)$/.exec(e);
  if (parse) return Math.round(((Number(parse[1]) * 60 + Number(parse[2])) * 60 + Number(parse[3])) * 1000);
  if (e === 'TimeSpan.Zero') return 0;
  return undefined;
}
