/**
 * Commands as objects (excalidraw's action registry): one object carries the label, the
 * shortcut, whether it can run, and what it does. The toolbar, the keyboard handler and the
 * tests all go through `runCommand`, so a shortcut can never do something the button doesn't.
 */
import type { AppState, AppStore } from '../store/store';

export interface CommandEnv {
  store: AppStore;
  /** canvas helpers, present once the canvas is mounted */
  canvas?: {
    /** the opening view (`whole`: all of the design, however small its names: readableFit.ts) */
    fitView(whole?: boolean): void;
    centre(): { x: number; y: number };
    /** select these nodes and bring them into view (a lint finding, a search result) */
    focus(ids: readonly string[]): void;
    /** open the find-a-node box */
    openSearch(): void;
  };
}

export interface Command {
  readonly id: string;
  readonly label: string;
  /** shown in tooltips, e.g. "Ctrl+Z" */
  readonly shortcut?: string;
  readonly icon?: string;
  /** which toolbar group shows it (none: keyboard or menu only) */
  readonly group?: 'edit' | 'view' | 'sim';
  keyTest?(e: KeyboardEvent): boolean;
  enabled?(s: AppState): boolean;
  perform(env: CommandEnv): void | Promise<void>;
}

const registry = new Map<string, Command>();

export function register(c: Command): Command {
  registry.set(c.id, c);
  return c;
}

export function getCommand(id: string): Command | undefined {
  return registry.get(id);
}

export function allCommands(): Command[] {
  return [...registry.values()];
}

export function runCommand(id: string, env: CommandEnv): boolean {
  const c = registry.get(id);
  if (!c) return false;
  if (c.enabled && !c.enabled(env.store.getState())) return false;
  void c.perform(env);
  return true;
}

function isTyping(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (!t || !t.tagName) return false;
  return t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable;
}

/** The keyboard handler: the first command whose keyTest matches runs. */
export function handleKey(e: KeyboardEvent, env: CommandEnv): boolean {
  if (isTyping(e)) return false;
  for (const c of registry.values()) {
    if (c.keyTest?.(e)) {
      if (c.enabled && !c.enabled(env.store.getState())) return false;
      e.preventDefault();
      void c.perform(env);
      return true;
    }
  }
  return false;
}

export const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;
