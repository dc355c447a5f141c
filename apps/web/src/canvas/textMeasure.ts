/**
 * Node faces sized by the text as the page draws it (faceFit.ts asks): each piece measured once on a canvas in
 * the faces' own font (a name semibold with -0.02 em letter spacing, a chip's text regular), per px of font size.
 * A little margin for sub-pixel rounding: a piece measured a hair short would break inside its word.
 */
import { measureTextWith, type TextKind } from '../graph/faceFit';

const MARGIN = 1.04;

export function installTextMeasure(): void {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  const fonts: Record<TextKind, string> = { name: `600 100px ${family}`, chip: `400 100px ${family}` };
  const cache = new Map<string, number>();
  measureTextWith((text, kind) => {
    const key = `${kind}\u0000${text}`;
    let w = cache.get(key);
    if (w === undefined) {
      ctx.font = fonts[kind];
      const spacing = kind === 'name' ? -0.02 * text.length : 0;
      w = (ctx.measureText(text).width / 100 + spacing) * MARGIN;
      cache.set(key, w);
    }
    return w;
  });
}
