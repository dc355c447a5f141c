import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './index.css';
import { App } from './App';
import { useApp } from './store/store';
import { loadSaved, persist } from './store/persistence';
import { openFromUrl } from './panels/templates';
import { openStress } from './stress/stressRoute';
import { dlxTtlRetry } from './fixtures/designs';

// Where a visit starts: a `?template=ID` link, else the saved design, else the gallery.
const saved = loadSaved();
const q = new URLSearchParams(location.search);
if (q.has('fixture')) useApp.getState().loadDesign(dlxTtlRetry());
else if (openStress(q)) {
  /* bench route */
} else if (!openFromUrl(q)) {
  if (saved) useApp.getState().loadDesign(saved);
  else useApp.getState().setView('gallery');
}
persist(useApp);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
