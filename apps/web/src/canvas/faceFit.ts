/**
 * What a node face (190 x 76 in flow units, nodes.tsx) has room for, worked out from text lengths
 * so that no node re-renders on zoom: the name is sized to fit whole (wrapped, never cut), and the
 * settings chips are packed per text-size level (the canvas's `data-lod`, readableFit.ts) with a
 * "+N" chip naming the ones that did not fit. Widths are estimated a little wide on purpose: a face
 * may show one chip fewer than it has room for, never half of one.
 */

/** the text-size levels: `--ts` (how much node text grows against the zoom) at its largest in each */
export const FACE_LEVELS = [
  { lod: 'a', ts: 1 },
  { lod: 'b', ts: 1.25 },
  { lod: 'c', ts: 1.5 },
  { lod: 'd', ts: 1.85 },
  { lod: 'e', ts: 2.2 },
  { lod: 'f', ts: 2.6 },
] as const;
export type FaceLod = (typeof FACE_LEVELS)[number]['lod'];

/** `ts` comes in steps of 0.05, rounded up: a level holds every ts up to its own */
export function lodOf(ts: number): FaceLod {
  return (FACE_LEVELS.find((l) => ts <= l.ts + 1e-6) ?? FACE_LEVELS[FACE_LEVELS.length - 1]!).lod;
}

/** the face inside its border and padding */
const INNER_W = 174;
const INNER_H = 64;
/** the name's width beside the glyph (the publisher's rounder face is the narrowest) */
export const NAME_W = 132;
/** below the glyph (it floats at the top left, GLYPH_H high) a line takes the face's width */
const NAME_FULL_W = 160;
const GLYPH_H = 24;
const NAME_EM = 0.6;
const NAME_LINE = 1.1;
const CHIP_EM = 0.56;
const CHIP_PAD = 10;
const GAP = 4;

/** the name's size on the face at a text scale: 13 px at zoom 1, 11 px on screen when zoomed out */
export function nameSizeAt(ts: number): number {
  return Math.max(13, 11 * ts);
}

/** the name's pieces as the face may break it: after a separator (`.`, `-`, `_`, `:`, `/`) or a space, never inside a word */
export function nameParts(name: string): string[] {
  return name.split(/(?<=[.\-_:/\s])/);
}

/**
 * Lines the name takes at a font size on the face: the lines beside the glyph hold NAME_W, those below it
 * NAME_FULL_W; a piece that does not fit the rest of a line starts the next. Infinity when a piece is wider
 * than a line (it would break inside a word).
 */
export function nameLines(name: string, px: number): number {
  const beside = Math.ceil(GLYPH_H / (px * NAME_LINE) - 1e-6);
  const room = (line: number) => Math.floor((line <= beside ? NAME_W : NAME_FULL_W) / (NAME_EM * px) + 1e-6);
  let line = 1;
  let used = 0;
  for (const p of nameParts(name)) {
    const len = p.trimEnd().length;
    if (used > 0 && used + len > room(line)) {
      line += 1;
      used = 0;
    }
    while (len > room(line)) {
      if (room(line) >= room(line + 1)) return Infinity;
      line += 1;
    }
    used += p.length;
  }
  return line;
}

/**
 * The chips' (and behaviour lines') font size at a text scale: 11 px at zoom 1, 9 px on screen when zoomed
 * out (the name keeps 11: it is what a face is read by; the settings it shows are read once found).
 */
export const chipPxAt = (ts: number) => Math.max(11, 9 * ts);

/** a row of chips at a text scale */
const chipRowH = (ts: number) => chipPxAt(ts) * 1.15 + 2;

/**
 * The font size the face gives its name at a text scale: as close to 11 px on screen as the face has
 * room for, on up to four lines broken between words, within the face's height (less a row of chips
 * when `reserve`: a queue's defining settings always have one).
 */
export function nameShownPx(name: string, ts: number, reserve = false): number {
  const budget = INNER_H - 4 - (reserve ? chipRowH(ts) + 2 : 0);
  const fits = (px: number) => {
    const lines = nameLines(name, px);
    return lines <= 4 && lines * px * NAME_LINE <= budget;
  };
  let hi = nameSizeAt(ts);
  if (fits(hi)) return hi;
  let lo = 4;
  for (let i = 0; i < 24; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether the face keeps a row for its defining settings at a text scale: yes, unless that would take
 * the name under 9 px on screen where without it the name reads (the name is what a face is read by;
 * at zoom 1/ts the name's px / ts is its size on screen). Then the settings are counted in "+N".
 */
export function reservesRow(name: string, ts: number, defining: boolean): boolean {
  if (!defining) return false;
  return nameShownPx(name, ts, true) / ts >= 9 || nameShownPx(name, ts, false) / ts < 9;
}

/** the name's font size at each text-size level (the face sets them as CSS variables, index.css picks the canvas's) */
export function nameSizes(name: string, defining = false): Record<FaceLod, number> {
  const out = {} as Record<FaceLod, number>;
  for (const l of FACE_LEVELS) out[l.lod] = nameShownPx(name, l.ts, reservesRow(name, l.ts, defining));
  return out;
}

/** how many rows of chips fit under the name at a text scale */
export function chipRows(name: string, ts: number, reserve = false): number {
  const px = nameShownPx(name, ts, reserve);
  const free = INNER_H - 4 - nameLines(name, px) * px * NAME_LINE;
  const row = chipRowH(ts);
  return Math.max(reserve ? 1 : 0, Math.floor((free + 2) / (row + 2)));
}

const chipW = (label: string, ts: number) => label.length * CHIP_EM * chipPxAt(ts) + CHIP_PAD * ts;

/**
 * How many of the chips (in order) are shown at a text scale in `rows` rows; when not all fit, the
 * last row keeps room for the "+N" chip. A chip wider than the face wraps onto rows of its own.
 */
export function chipsShown(labels: readonly string[], rows: number, ts: number): number {
  if (rows <= 0) return 0;
  const fits = (n: number, withMore: boolean): boolean => {
    let row = 1;
    let x = 0;
    const widths = labels.slice(0, n).map((l) => chipW(l, ts));
    if (withMore) widths.push(chipW(`+${labels.length - n}`, ts));
    for (const w of widths) {
      if (x > 0 && x + GAP + w > INNER_W) {
        row++;
        x = 0;
      }
      // a chip wider than the face wraps at its separators onto rows of its own (never cut)
      if (w > INNER_W) {
        row += Math.ceil(w / INNER_W) - 1;
        x = INNER_W;
      } else x += (x > 0 ? GAP : 0) + w;
    }
    return row <= rows;
  };
  if (fits(labels.length, false)) return labels.length;
  for (let n = labels.length - 1; n >= 0; n--) if (fits(n, true)) return n;
  return 0;
}

/**
 * The chips shown at each level, in level order: never fewer than the `defining` first ones (they share
 * their row, each cut short where it must be, its title whole) where the name leaves them a row (reservesRow).
 */
export function chipsPerLevel(
  name: string,
  labels: readonly string[],
  defining = 0,
): Record<FaceLod, { shown: number; squeezed: boolean }> {
  const out = {} as Record<FaceLod, { shown: number; squeezed: boolean }>;
  for (const l of FACE_LEVELS) {
    const reserve = reservesRow(name, l.ts, defining > 0);
    const fits = chipsShown(labels, chipRows(name, l.ts, reserve), l.ts);
    const kept = reserve ? defining : 0;
    out[l.lod] = { shown: Math.max(kept, fits), squeezed: fits < kept };
  }
  return out;
}

/** a line of text (a behaviour line, a publisher's route) fits the face whole at this text scale */
export function lineFits(text: string, ts: number, width = INNER_W): boolean {
  return text.length * CHIP_EM * chipPxAt(ts) <= width;
}

/**
 * The lines a face shows at a text scale, in order: only whole ones (never "run failure …"), as many as
 * its rows; the others are counted (their text in the tooltip).
 */
export function wholeLines(lines: readonly string[], rows: number, ts: number): number[] {
  const out: number[] = [];
  lines.forEach((t, i) => {
    if (out.length < rows && lineFits(t, ts)) out.push(i);
  });
  return out;
}
