/**
 * How readable the canvas is as it stands, measured in the page from the DOM's boxes and the zoom:
 * each name's size on screen (its font size times the zoom), names broken inside a word (a piece
 * between separators spread over two lines), text a node cuts (an ellipsis, or spilling out of it),
 * the smallest edge label drawn. Page scripts are strings: tsx's keepNames would inject a helper.
 */
import type { Page } from 'playwright-core';

export interface Readability {
  zoom: number;
  /** DOM nodes drawn */
  nodes: number;
  /** the smallest name on screen, px (Infinity with no names) */
  minNamePx: number;
  /** names under 9 px on screen: `name (px)` */
  small: string[];
  /** names broken inside a word: `name: "piece"` */
  midWord: string[];
  /** names not whole (cut, or outside their box) */
  cut: string[];
  /** node text cut short (an ellipsis on a chip or a behaviour line): `node: text` */
  clipped: string[];
  /** defining settings squeezed into their row, each cut short (its title whole): `node: text` */
  squeezed: string[];
  /** settings counted in "+N" chips, on every node */
  more: number;
  /** defining settings (TTL, DLX, delivery limit) counted in a "+N" chip instead of shown: `node (n)` */
  definingHidden: string[];
  /** the smallest edge label shown, px on screen (Infinity when none is shown) */
  minEdgeLabelPx: number;
  /** the overview canvas is what is drawn (a big design zoomed out) */
  overview: boolean;
}

export function readability(page: Page): Promise<Readability> {
  return page.evaluate(`(() => {
    const vp = document.querySelector('.react-flow__viewport');
    const zoom = Number((/scale\\(([\\d.e-]+)\\)/.exec(vp ? vp.style.transform : '') || [])[1] || NaN);
    const nodes = Array.from(document.querySelectorAll('.react-flow__node'));
    let minNamePx = Infinity;
    const small = [], midWord = [], cut = [], clipped = [], squeezed = [], definingHidden = [];
    let more = 0;
    for (const n of nodes) {
      const box = n.getBoundingClientRect();
      const name = n.querySelector('[data-testid=node-name]');
      if (!name) continue;
      const px = parseFloat(getComputedStyle(name).fontSize) * zoom;
      minNamePx = Math.min(minNamePx, px);
      if (px < 9) small.push(name.title + ' (' + px.toFixed(1) + ')');
      // a line that starts inside a word: the character before the break is neither a space nor a separator
      for (const t of Array.from(name.childNodes)) {
        const text = t.textContent || '';
        if (t.nodeType !== 3 || text.length < 2) continue;
        const range = document.createRange();
        let top = null, prev = -1;
        for (let i = 0; i < text.length; i++) {
          if (/\\s/.test(text[i])) continue;
          range.setStart(t, i);
          range.setEnd(t, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          const between = text.slice(prev + 1, i);
          if (top !== null && Math.abs(rect.top - top) > 2 && !/\\s/.test(between) && !/[.\\-_:/]/.test(text[prev]))
            midWord.push(name.title + ': "' + text.slice(0, i) + ' / ' + text.slice(i) + '"');
          top = rect.top;
          prev = i;
        }
      }
      const r = name.getBoundingClientRect();
      if (name.textContent !== name.title || r.bottom > box.bottom + 1 || r.right > box.right + 1 || r.left < box.left - 1)
        cut.push(name.title);
      for (const el of Array.from(n.querySelectorAll('.truncate'))) {
        if (getComputedStyle(el).display === 'none' || el.offsetParent === null) continue;
        if (el.scrollWidth <= el.clientWidth + 1) continue;
        if (el.closest('[data-squeezed=true]') && el.getAttribute('data-defining') === 'true') squeezed.push(name.title + ': ' + el.textContent);
        else clipped.push(name.title + ': ' + el.textContent);
      }
      for (const m of Array.from(n.querySelectorAll('[data-testid=chips-more]'))) {
        if (m.offsetParent === null) continue;
        more += Number((m.textContent || '').replace(/[^0-9]/g, '')) || 0;
        const d = Number(m.getAttribute('data-defining-hidden') || 0);
        if (d > 0) definingHidden.push(name.title + ' (' + d + ')');
      }
    }
    let minEdgeLabelPx = Infinity;
    for (const l of Array.from(document.querySelectorAll('[data-testid^=edge-label]'))) {
      const s = getComputedStyle(l);
      if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) continue;
      const rect = l.getBoundingClientRect();
      if (rect.width === 0) continue;
      minEdgeLabelPx = Math.min(minEdgeLabelPx, parseFloat(s.fontSize) * zoom);
    }
    const overview = !!document.querySelector('[data-testid=canvas-overview]');
    return { zoom, nodes: nodes.filter((n) => n.offsetParent !== null).length, minNamePx, small, midWord, cut, clipped, squeezed, more, definingHidden, minEdgeLabelPx, overview };
  })()`) as Promise<Readability>;
}

/** Nodes (DOM, or the overview's drawn bounds) outside the canvas, and those under the minimap. */
export function nodesOutOfView(page: Page): Promise<{ outside: string[]; underMinimap: string[] }> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLElement>('[data-testid=canvas]')!;
    const c = canvas.getBoundingClientRect();
    const m = document.querySelector('.react-flow__minimap')?.getBoundingClientRect();
    // no named functions inside: the page has no `__name` (tsx keeps names)
    const boxes: Array<{ id: string; r: { left: number; right: number; top: number; bottom: number } }> = Array.from(
      document.querySelectorAll('.react-flow__node'),
    ).map((n) => ({ id: n.getAttribute('data-id') ?? '?', r: n.getBoundingClientRect() }));
    const drawn = canvas.dataset.drawnBounds?.split(',').map(Number);
    if (drawn)
      boxes.push({
        id: 'the overview',
        r: { left: c.left + drawn[0]!, top: c.top + drawn[1]!, right: c.left + drawn[2]!, bottom: c.top + drawn[3]! },
      });
    const outside: string[] = [];
    const underMinimap: string[] = [];
    for (const { id, r } of boxes) {
      if (!!m && r.left < m.right && m.left < r.right && r.top < m.bottom && m.top < r.bottom) underMinimap.push(id);
      if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1)
        outside.push(id);
    }
    return { outside, underMinimap };
  });
}
