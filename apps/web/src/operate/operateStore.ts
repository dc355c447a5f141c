/**
 * Operate state outside the design store: the queues' live depths (a badge per queue node
 * subscribes to its own entry), the imported queues' roles, and which queue the dead-letter panel
 * looks at. Where the broker is, is the one broker context (store/brokerSlice.ts).
 */
import { create } from 'zustand';
import type { ImportRole } from '@retry-studio/topology-core/operate';
import type { QueueDepth } from '@retry-studio/contract';

export interface OperateState {
  polling: boolean;
  /** by broker queue name (the context's prefix + the design's name) */
  depths: Record<string, QueueDepth>;
  depthsAt: string | null;
  /** by the design's queue name */
  roles: Record<string, ImportRole>;
  /** the design and context (useOperateScope) the roles and depths were read for: another's are cleared */
  resultsScope: string;
  /** the broker's name of the queue (prefix included) */
  dlqQueue: string;
  /** Browse was asked for from elsewhere (the Operate tab): the dead-letter panel reads `dlqQueue` at once, and clears it */
  browseAsked: boolean;
  /** a vhost import was asked for from the toolbar's Open / Import: the Operate tab imports, and clears it */
  importAsked: boolean;
  set: (patch: Partial<Omit<OperateState, 'set'>>) => void;
}

export const useOperate = create<OperateState>((set) => ({
  polling: false,
  depths: {},
  depthsAt: null,
  roles: {},
  resultsScope: '',
  dlqQueue: '',
  browseAsked: false,
  importAsked: false,
  set: (patch) => set(patch),
}));
