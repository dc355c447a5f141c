import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './index.css';
import { App } from './App';
import { useApp } from './store/store';
import { loadSaved, persist } from './store/persistence';
import { openFromUrl } from './panels/templates';

// Where a visit starts: a `?template=ID` link, else the saved design, else the gallery.
const saved = loadSaved();
if (!openFromUrl(new URLSearchParams(location.search))) {
  if (saved) useApp.getState().loadDesign(saved);
  else useApp.getState().setView('gallery');
}
persist(useApp);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
