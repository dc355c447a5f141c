// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createAppStore } from './store';
import { dlxTtlRetry } from '../fixtures/designs';
import { emptyDesign } from '../model/emptyDesign';
import { freshness, versionOf } from './resultsVersion';

function simulated() {
  const store = createAppStore();
  store.getState().loadDesign({ ...dlxTtlRetry(), name: 'mine' }, { history: false });
  store.getState().runSimulation();
  store.getState().setLiveEvents([]);
  store.setState({ divergenceNode: 'queue:work.q' });
  store.getState().inspectMessage('m-1');
  expect(store.getState().simEvents?.length).toBeGreaterThan(0);
  return store;
}

const withTtl = (store: ReturnType<typeof createAppStore>, ttl: number) => {
  const d = store.getState().design;
  return {
    ...d,
    topology: {
      ...d.topology,
      queues: d.topology.queues.map((q) =>
        q.name === 'wait.q' ? { ...q, arguments: { ...q.arguments, 'x-message-ttl': ttl } } : q,
      ),
    },
  };
};

describe('the version results belong to', () => {
  it('an edit makes results stale and takes the simulation off the canvas', () => {
    const store = simulated();
    const before = versionOf(store.getState());
    store.getState().setDesign(withTtl(store, 9000));
    const s = store.getState();
    expect(freshness(before, versionOf(s))).toBe('stale');
    expect(s.simEvents).toBeNull();
    expect(s.liveEvents).toBeNull();
    expect(s.divergenceNode).toBeNull();
    expect(s.inspectedMsg).toBeNull();
  });

  it('an undo is a version too: the result of the undone edit is stale', () => {
    const store = simulated();
    store.getState().setDesign(withTtl(store, 9000));
    store.getState().runSimulation();
    const edited = versionOf(store.getState());
    store.getState().undo();
    expect(freshness(edited, versionOf(store.getState()))).toBe('stale');
    expect(store.getState().simEvents).toBeNull();
  });

  it('undoing back to the version a result was computed for makes it current again; a new edit is a new version', () => {
    const store = simulated();
    const traced = versionOf(store.getState());
    store.getState().setDesign(withTtl(store, 9000));
    const edited = versionOf(store.getState());
    expect(freshness(traced, edited)).toBe('stale');
    store.getState().undo();
    expect(freshness(traced, versionOf(store.getState()))).toBe('current');
    store.getState().redo();
    expect(freshness(edited, versionOf(store.getState()))).toBe('current');
    store.getState().undo();
    store.getState().setDesign(withTtl(store, 7000));
    const other = versionOf(store.getState());
    expect(freshness(traced, other)).toBe('stale');
    expect(freshness(edited, other)).toBe('stale');
  });

  it('moving a node or renaming the design keeps results current', () => {
    const store = simulated();
    const before = versionOf(store.getState());
    const d = store.getState().design;
    store.getState().setDesign({ ...d, name: 'renamed', layout: { ...d.layout, 'queue:work.q': { x: 500, y: 500 } } });
    expect(freshness(before, versionOf(store.getState()))).toBe('current');
    expect(store.getState().simEvents).not.toBeNull();
  });

  it("opening another design makes results another design's", () => {
    const store = simulated();
    const before = versionOf(store.getState());
    store.getState().loadDesign(emptyDesign('other'));
    expect(freshness(before, versionOf(store.getState()))).toBe('other-design');
    expect(store.getState().simEvents).toBeNull();
  });
});
