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

/** how far node text grows against the zoom: 11 px node text stays 11 px on screen down to zoom 1/2.6 (a seven-column template in an 800 px canvas) */
export const MAX_TEXT_SCALE = 2.6;

/**
 * `--ts` at a zoom: 1 at zoom 1 and above, 1/zoom below (up to MAX_TEXT_SCALE), in steps of 0.05 rounded up
 * (11 px × ts × zoom never comes out under 11): a zoom gesture restyles the node text a few times, not on every frame.
 */
export function textScaleAt(zoom: number): number {
  return Math.ceil(Math.min(MAX_TEXT_SCALE, Math.max(1, 1 / zoom)) * 20) / 20;
}

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

/**
 * A name's size on screen at a zoom (px), `sizes` its face's font size per level (index.css: the smaller of
 * the text scale's and its level's).
 */
export function nameOnScreenPx(sizes: Readonly<Record<FaceLod, number>>, zoom: number): number {
  const ts = textScaleAt(zoom);
  return Math.min(nameSizeAt(ts), sizes[lodOf(ts)]) * zoom;
}

/**
 * A text's width per px of font size: a name (semibold, tighter) or a chip's or a line's text. Estimated a
 * little wide from its length where nothing measures it (tests, workers); the page measures it in the font it
 * draws with (textMeasure.ts): the estimate sized real names a fifth smaller than they had room for.
 */
export type TextKind = 'name' | 'chip';
let emWidth = (text: string, kind: TextKind): number => text.length * (kind === 'name' ? NAME_EM : CHIP_EM);

/** How the page measures text from now on (installed once, before the first face is drawn). */
export function measureTextWith(measure: (text: string, kind: TextKind) => number): void {
  emWidth = measure;
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
export function nameLines(name: string, px: number, glyph = true): number {
  const beside = glyph ? Math.ceil(GLYPH_H / (px * NAME_LINE) - 1e-6) : 0;
  const room = (line: number) => (line <= beside ? NAME_W : NAME_FULL_W) + 1e-6;
  let line = 1;
  let used = 0;
  for (const p of nameParts(name)) {
    const w = emWidth(p.trimEnd(), 'name') * px;
    if (used > 0 && used + w > room(line)) {
      line += 1;
      used = 0;
    }
    while (w > room(line)) {
      if (room(line) >= room(line + 1)) return Infinity;
      line += 1;
    }
    used += emWidth(p, 'name') * px;
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
export function nameShownPx(name: string, ts: number, reserve = false, glyph = true): number {
  const budget = INNER_H - 4 - (reserve ? chipRowH(ts) + 2 : 0);
  const fits = (px: number) => {
    const lines = nameLines(name, px, glyph);
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

/** the name's font size at each text-size level on a face with no settings row to keep (a queue's: facePerLevel) */
export function nameSizes(name: string): Record<FaceLod, number> {
  const out = {} as Record<FaceLod, number>;
  for (const l of FACE_LEVELS) out[l.lod] = nameShownPx(name, l.ts);
  return out;
}

/** how many rows of chips fit under the name at a text scale */
export function chipRows(name: string, ts: number, reserve = false): number {
  const px = nameShownPx(name, ts, reserve);
  const free = INNER_H - 4 - nameLines(name, px) * px * NAME_LINE;
  const row = chipRowH(ts);
  return Math.max(reserve ? 1 : 0, Math.floor((free + 2) / (row + 2)));
}

/** a chip's width: its text at the chips' size, and its padding and border (flow px: they do not grow with the text) */
const chipW = (label: string, ts: number) => emWidth(label, 'chip') * chipPxAt(ts) + CHIP_PAD;

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

/** A face's chip: its label, and for a defining one the short label a tight face may show (its title keeps the whole) */
export interface FaceChipText {
  readonly label: string;
  readonly short?: string;
}

/** How a face is laid out at a text-size level (nodes.tsx draws it; CSS shows the canvas's level). */
export interface FaceAt {
  /** the name's font size, flow px */
  readonly namePx: number;
  /** the chips shown, in order (the others counted in "+N") */
  readonly shown: number;
  /** the defining chips share their row each cut short, their titles whole: only where no face keeps them whole */
  readonly squeezed: boolean;
  /** the glyph joins the settings row and the name takes the face's width: the defining settings stay whole */
  readonly tight: boolean;
  /** a tight face shows the defining chips' short labels (`DLX`: its dead-letter edge says where) */
  readonly short: boolean;
}

/** the glyph in a tight face's settings row (nodes.tsx: 1.3 em wide at the chips' size) */
const rowGlyphW = (ts: number) => 1.3 * chipPxAt(ts);

/** a row of chips, each whole, fits the face's width after `lead` px */
const rowFits = (labels: readonly string[], ts: number, lead = 0): boolean =>
  labels.reduce((x, l) => x + (x > 0 ? GAP : 0) + chipW(l, ts), lead) <= INNER_W;

/**
 * The face at a text scale. A queue's defining settings (TTL, dead-letter exchange, delivery limit) are
 * always on its node, whole: under a name beside its glyph where that name still reads at 9 px on screen
 * (the face as it always was); else in a tight face, the glyph leading their row and the name on the face's
 * whole width, their short labels where the whole ones do not fit (chained-ttl's wait queues at 1280x800
 * counted theirs in "+2"), else their short labels in the row under the name. Only where none of these reads is
 * the old way kept (a row cut short, or "+N").
 */
export function faceAt(name: string, chips: readonly FaceChipText[], defining: number, ts: number): FaceAt {
  const labels = chips.map((c) => c.label);
  const reserve = reservesRow(name, ts, defining > 0);
  const fits = chipsShown(labels, chipRows(name, ts, reserve), ts);
  const kept = reserve ? defining : 0;
  const plain: FaceAt = {
    namePx: nameShownPx(name, ts, reserve),
    shown: Math.max(kept, fits),
    squeezed: fits < kept,
    tight: false,
    short: false,
  };
  if (defining === 0 || (reserve && fits >= defining)) return plain;
  const short = chips.slice(0, defining).map((c) => c.short ?? c.label);
  const namePx = nameShownPx(name, ts, true, false);
  if (namePx / ts >= 9) {
    const whole = labels.slice(0, defining);
    if (rowFits(whole, ts, rowGlyphW(ts)))
      return { namePx, shown: defining, squeezed: false, tight: true, short: false };
    if (rowFits(short, ts, rowGlyphW(ts)))
      return { namePx, shown: defining, squeezed: false, tight: true, short: true };
  }
  // the row kept under the name, without the glyph's room: the short labels whole there before any label is cut
  // (dlx-ttl-wait-queue's wait queue read "T…" in a canvas the Rehearse panel had squeezed)
  if (reserve && rowFits(short, ts)) return { ...plain, shown: defining, squeezed: false, short: true };
  return plain;
}

/** the face at every level, in level order */
export function facePerLevel(name: string, chips: readonly FaceChipText[], defining = 0): Record<FaceLod, FaceAt> {
  const out = {} as Record<FaceLod, FaceAt>;
  for (const l of FACE_LEVELS) out[l.lod] = faceAt(name, chips, defining, l.ts);
  return out;
}

/** The chips shown at each level (facePerLevel's), for a face whose chips have no short labels. */
export function chipsPerLevel(
  name: string,
  labels: readonly string[],
  defining = 0,
): Record<FaceLod, { shown: number; squeezed: boolean }> {
  const per = facePerLevel(
    name,
    labels.map((label) => ({ label })),
    defining,
  );
  const out = {} as Record<FaceLod, { shown: number; squeezed: boolean }>;
  for (const l of FACE_LEVELS) out[l.lod] = { shown: per[l.lod].shown, squeezed: per[l.lod].squeezed };
  return out;
}

/** a line of text (a behaviour line, a publisher's route) fits the face whole at this text scale */
export function lineFits(text: string, ts: number, width = INNER_W): boolean {
  return emWidth(text, 'chip') * chipPxAt(ts) <= width;
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
