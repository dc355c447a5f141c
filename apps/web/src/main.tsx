import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './index.css';
import { App } from './App';
import { useApp } from './store/store';
import { openDesignStorage, persist } from './store/persistence';
import { openKept } from './store/designLibrary';
import { openFromUrl } from './panels/templates';
import { openStress } from './stress/stressRoute';
import { dlxTtlRetry } from './fixtures/designs';
import { installTextMeasure } from './canvas/textMeasure';

// Where a visit starts: the design open last time (read from IndexedDB, where the designs kept in
// localStorage are moved on first visit), then a `?template=ID` link on top of it (one undo step
// back), else the gallery when nothing is stored. Only the open design's body is read.
async function start(): Promise<void> {
  // node faces are sized by their text as this page draws it
  installTextMeasure();
  const storage = await openDesignStorage();
  const index = await storage.readIndex().catch(() => null);
  const current = index?.currentId ? await storage.readDesign(index.currentId).catch(() => null) : null;
  if (current && index?.currentId) {
    const entry = index.designs.find((e) => e.id === index.currentId);
    openKept(useApp, index.currentId, current, entry, { history: false });
  }
  persist(useApp, storage);
  const q = new URLSearchParams(location.search);
  if (q.has('fixture')) useApp.getState().loadDesign(dlxTtlRetry(), { history: false });
  else if (openStress(q)) {
    /* bench route */
  } else if (openFromUrl(q)) {
    // the link has done its work: a reload shows the design as edited, not the template again
    history.replaceState(null, '', location.pathname);
  } else if (!current) useApp.getState().setView('gallery');

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
