/**
 * The notices about the design just opened (what it replaced, what its import left out), in one strip over the
 * canvas's top margin (the opening view keeps FIT_PADDING clear): as bars above the canvas they took 121 px of a
 * 1280x800 window, and a real 12-queue file opened with its names at 5.5 px.
 */
import { ReplacedNotice } from './ReplacedNotice';
import { ImportNotes } from './ImportNotes';

export function CanvasNotices() {
  return (
    <div
      data-testid="canvas-notices"
      className="pointer-events-none absolute inset-x-2 top-1 z-10 flex items-start gap-2"
    >
      <ReplacedNotice />
      <ImportNotes />
    </div>
  );
}
