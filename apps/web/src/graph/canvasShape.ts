/**
 * The canvas a design opens in, as the window lays it out now (between the palette, the side panel and
 * the bottom panel): layouts aim at its shape. While the gallery hides it, the share of the window the
 * designer gives it.
 */
export function canvasShape(): { width: number; height: number } {
  const el = typeof document !== 'undefined' ? document.querySelector<HTMLElement>('[data-testid="canvas"]') : null;
  if (el && el.clientWidth > 0 && el.clientHeight > 0) return { width: el.clientWidth, height: el.clientHeight };
  if (typeof window === 'undefined') return { width: 800, height: 430 };
  return { width: Math.max(300, window.innerWidth - 480), height: Math.max(200, window.innerHeight - 370) };
}
