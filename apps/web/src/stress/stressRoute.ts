/**
 * Hidden stress route for the canvas bench: `/?stress=NODES_COPIES&messages=N` draws a big
 * design, simulates it, and plays it on a loop. Not linked from the UI.
 */
import { useApp } from '../store/store';
import { stressDesign } from '../fixtures/designs';
import { player } from '../sim/player';

export function openStress(q: URLSearchParams): boolean {
  if (!q.has('stress')) return false;
  const copies = Number(q.get('stress')) || 43;
  const perPublisher = Math.max(1, Math.ceil((Number(q.get('messages')) || 1000) / copies));
  const s = useApp.getState();
  s.loadDesign(stressDesign(copies), { history: false, pristine: true });
  useApp.setState({ view: 'designer', messageCount: perPublisher, failure: { kind: 'failFirst', n: 2 } });
  s.requestFit(true); // the bench draws every node
  // the simulation after the canvas is drawn: opening a design never waits for one (the bench times the drawing)
  requestAnimationFrame(() =>
    setTimeout(() => {
      useApp.getState().runSimulation();
      player.setSpeed(Number(q.get('speed')) || 1);
      player.loop = true;
      player.play();
    }, 0),
  );
  return true;
}
