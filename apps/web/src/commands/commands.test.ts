// @vitest-environment node
// (these tests need no DOM: the node environment starts faster than jsdom)
import { beforeEach, describe, expect, it } from 'vitest';
import './commands';
import { handleKey, runCommand, allCommands, type CommandEnv } from './registry';
import { createAppStore } from '../store/store';
import { dlxTtlRetry } from '../fixtures/designs';
import { addNode } from '../model/designEdit';

let env: CommandEnv;
beforeEach(() => {
  const store = createAppStore();
  store.getState().loadDesign(dlxTtlRetry());
  env = { store };
});

/** A keydown as the handler reads it (target, key, modifiers, preventDefault). */
const key = (
  k: string,
  mods: { ctrlKey?: boolean; shiftKey?: boolean; metaKey?: boolean } = {},
  target: unknown = { tagName: 'DIV' },
) =>
  ({
    key: k,
    code: '',
    ctrlKey: false,
    shiftKey: false,
    metaKey: false,
    altKey: false,
    target,
    preventDefault() {},
    ...mods,
  }) as unknown as KeyboardEvent;

describe('command registry', () => {
  it('every command has an id, a label and a perform', () => {
    for (const c of allCommands()) {
      expect(c.id).toBeTruthy();
      expect(c.label).toBeTruthy();
      expect(typeof c.perform).toBe('function');
    }
  });

  it('delete removes the selection and undo/redo bring it back and forth', () => {
    const s = env.store;
    s.getState().select(['queue:parking.q']);
    expect(runCommand('delete', env)).toBe(true);
    expect(s.getState().design.topology.queues.map((q) => q.name)).not.toContain('parking.q');
    expect(runCommand('undo', env)).toBe(true);
    expect(s.getState().design.topology.queues.map((q) => q.name)).toContain('parking.q');
    expect(runCommand('redo', env)).toBe(true);
    expect(s.getState().design.topology.queues.map((q) => q.name)).not.toContain('parking.q');
  });

  it('commands that cannot run say so (undo with no history, delete with no selection)', () => {
    expect(runCommand('undo', env)).toBe(false);
    expect(runCommand('delete', env)).toBe(false);
  });

  it('shortcuts run the same commands: Ctrl+D duplicates, Ctrl+Z undoes, Delete deletes', () => {
    const s = env.store;
    s.getState().select(['exchange:work']);
    expect(handleKey(key('d', { ctrlKey: true }), env)).toBe(true);
    expect(s.getState().design.topology.exchanges.map((x) => x.name)).toContain('work.copy');
    expect(s.getState().selected).toEqual(['exchange:work.copy']);
    expect(handleKey(key('z', { ctrlKey: true }), env)).toBe(true);
    expect(s.getState().design.topology.exchanges.map((x) => x.name)).not.toContain('work.copy');
    s.getState().select(['consumer:worker']);
    expect(handleKey(key('Delete'), env)).toBe(true);
    expect(s.getState().design.consumers).toEqual([]);
  });

  it('shortcuts are ignored while typing in a field', () => {
    env.store.getState().select(['queue:parking.q']);
    expect(handleKey(key('Backspace', {}, { tagName: 'INPUT' }), env)).toBe(false);
    expect(env.store.getState().design.topology.queues).toHaveLength(3);
  });
});

describe('design history', () => {
  it('coalesces consecutive edits of one field into one undo step', () => {
    const s = env.store;
    const d0 = s.getState().design;
    s.getState().setDesign({ ...d0, name: 'a' }, { coalesce: 'name' });
    s.getState().setDesign({ ...d0, name: 'ab' }, { coalesce: 'name' });
    s.getState().setDesign({ ...d0, name: 'abc' }, { coalesce: 'name' });
    expect(s.getState().past).toHaveLength(1);
    s.getState().undo();
    expect(s.getState().design).toBe(d0);
  });

  it('a new edit clears the redo stack', () => {
    const s = env.store;
    s.getState().setDesign(addNode(s.getState().design, { kind: 'consumer' }, { x: 0, y: 0 }).design);
    s.getState().undo();
    expect(s.getState().future).toHaveLength(1);
    s.getState().setDesign(addNode(s.getState().design, { kind: 'publisher' }, { x: 0, y: 0 }).design);
    expect(s.getState().future).toHaveLength(0);
  });
});
describe('what if a node goes down (toggleNodeLoss)', () => {
  it('adds a node loss to the simulation: work.q delivers nothing while its node is down, the run marks the window; toggled off, gone', () => {
    const s = () => env.store.getState();
    s().setClusterNodeNames(['rabbit-c1@h', 'rabbit-c2@h', 'rabbit-c3@h']);
    s().runSimulation();
    const before = s()
      .simEvents!.filter((e) => e.kind === 'delivered' && e.queue === 'work.q')
      .map((e) => e.t);
    expect(runCommand('toggleNodeLoss', env)).toBe(true);
    // the probed cluster's second node, all queues (no plan), and the run again with it
    expect(s().nodeLoss).toMatchObject({ node: 'rabbit-c2@h', queues: 'placement' });
    s().setNodeLoss({ ...s().nodeLoss!, atMs: 0, downMs: 3000 });
    s().runSimulation();
    const after = s()
      .simEvents!.filter((e) => e.kind === 'delivered' && e.queue === 'work.q')
      .map((e) => e.t);
    expect(Math.min(...before)).toBe(0);
    expect(Math.min(...after)).toBe(3000);
    expect(s().simOutages.map((o) => [o.queue, o.fromMs, o.untilMs])).toEqual([
      ['work.q', 0, 3000],
      ['wait.q', 0, 3000],
      ['parking.q', 0, 3000],
    ]);
    runCommand('toggleNodeLoss', env);
    expect(s().nodeLoss).toBeNull();
    expect(s().simOutages).toEqual([]);
  });

  it('a bad node loss is the simulation error, naming the field', () => {
    const s = () => env.store.getState();
    runCommand('toggleNodeLoss', env);
    s().setNodeLoss({ ...s().nodeLoss!, downMs: -5 });
    s().runSimulation();
    expect(s().simError).toMatch(/^nodeLoss\.downMs: /);
  });
});
