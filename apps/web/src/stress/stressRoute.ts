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
  // the simulation once the canvas is drawn (the overview canvas, or the nodes): opening a design never waits
  // for one, and the bench times the opening alone, as a user opens a design and then presses play
  const start = () => {
    const c = document.querySelector('[data-testid=canvas]');
    if (!c?.hasAttribute('data-drawn') && !c?.querySelector('.react-flow__node'))
      return void requestAnimationFrame(start);
    // a second later, as a user presses play: the bench times the opening (drawn, then the page answering) apart
    requestAnimationFrame(() =>
      setTimeout(() => {
        useApp.getState().runSimulation();
        player.setSpeed(Number(q.get('speed')) || 1);
        player.loop = true;
        player.play();
      }, 1000),
    );
  };
  requestAnimationFrame(start);
  return true;
}
