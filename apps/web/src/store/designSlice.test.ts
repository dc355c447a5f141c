// @vitest-environment node
import { describe, expect, it } from 'vitest';
import '../commands/commands';
import { runCommand } from '../commands/registry';
import { createAppStore } from './store';
import { dlxTtlRetry } from '../fixtures/designs';
import { emptyDesign } from '../model/emptyDesign';

/** A store with one edited design open ("mine"). */
function withWork() {
  const store = createAppStore();
  store.getState().loadDesign({ ...dlxTtlRetry(), name: 'mine' }, { history: false });
  store.getState().setDesign({ ...store.getState().design, name: 'mine, edited' });
  return store;
}

describe('replacing the open design', () => {
  it('is one undo step back to the design and the stored design it was', () => {
    const store = withWork();
    const before = store.getState();
    store.getState().loadDesign(emptyDesign('template'), { pristine: true });
    expect(store.getState().docId).not.toBe(before.docId);
    expect(store.getState().replaced).toEqual({ previous: 'mine, edited', next: 'template', kept: true });
    expect(runCommand('undo', { store })).toBe(true);
    expect(store.getState().design).toBe(before.design);
    expect(store.getState().docId).toBe(before.docId);
    // and the edit before it is still one more step back
    store.getState().undo();
    expect(store.getState().design.name).toBe('mine');
    store.getState().redo();
    store.getState().redo();
    expect(store.getState().design.name).toBe('template');
  });

  it('clears what belonged to the other design: selection and simulation', () => {
    const store = withWork();
    store.getState().select(['queue:work.q']);
    store.getState().runSimulation();
    expect(store.getState().simEvents).not.toBeNull();
    store.getState().loadDesign(emptyDesign('next'));
    expect(store.getState().selected).toEqual([]);
    expect(store.getState().simEvents).toBeNull();
  });

  it('records nothing when an untouched empty canvas is replaced, or at start-up', () => {
    const store = createAppStore();
    store.getState().loadDesign(dlxTtlRetry());
    expect(store.getState().past).toEqual([]);
    expect(store.getState().replaced).toBeNull();
    store.getState().loadDesign(emptyDesign('boot'), { history: false });
    expect(store.getState().past).toEqual([]);
  });

  it('an untouched template is not announced as kept', () => {
    const store = createAppStore();
    store.getState().loadDesign(dlxTtlRetry(), { pristine: true });
    store.getState().loadDesign(emptyDesign('other'), { pristine: true });
    expect(store.getState().replaced?.kept).toBe(false);
  });
});
