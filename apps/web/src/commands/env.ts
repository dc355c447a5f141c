import { useApp } from '../store/store';
import type { CommandEnv } from './registry';

/** The live command environment; the canvas fills in its helpers when it mounts. */
export const env: CommandEnv = { store: useApp };
