/**
 * Operate state outside the design store: where the broker is (management URL, vhost), the
 * queues' live depths (a badge per queue node subscribes to its own entry), and which queue the
 * dead-letter panel looks at.
 */
import { create } from 'zustand';
import type { ImportRole } from '@retry-studio/topology-core/operate';
import type { QueueDepth } from '@retry-studio/contract';

export interface OperateState {
  managementUrl: string;
  /** empty: the vhost the broker URL names */
  vhost: string;
  /** broker queue name = prefix + design queue name (a deployed design); '' for an imported one */
  prefix: string;
  polling: boolean;
  depths: Record<string, QueueDepth>;
  depthsAt: string | null;
  roles: Record<string, ImportRole>;
  /** the design and vhost (useOperateScope) the roles and depths were read for: another's are cleared */
  resultsScope: string;
  dlqQueue: string;
  /** Browse was asked for from elsewhere (the Operate tab): the dead-letter panel reads `dlqQueue` at once, and clears it */
  browseAsked: boolean;
  /** a vhost import was asked for from the toolbar's Open / Import: the Operate tab imports, and clears it */
  importAsked: boolean;
  set: (patch: Partial<Omit<OperateState, 'set'>>) => void;
}

export const useOperate = create<OperateState>((set) => ({
  managementUrl: '',
  vhost: '',
  prefix: '',
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
