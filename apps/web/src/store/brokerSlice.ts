/**
 * THE broker context: which broker (URL with its credentials), management API, vhost and name
 * prefix every broker panel acts on (Broker, Live trace, Operate, Dead letters, Open > A live
 * vhost). Kept in memory only: the URL's password never reaches storage (broker/brokerMemory.ts
 * remembers the rest per broker, without user or password). A deploy or a vhost import sets it to
 * what it did; nothing here opens or replaces a design.
 */
import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export interface BrokerContext {
  /** the AMQP URL, credentials included (empty: the server's default) */
  readonly url: string;
  /** the management API (empty: the server looks for it, managementCandidates) */
  readonly managementUrl: string;
  /** empty: the vhost the URL names */
  readonly vhost: string;
  /** the design's objects are `prefix + name` on the broker ('' for an imported vhost: the names are the broker's) */
  readonly prefix: string;
}

export const DEFAULT_BROKER: BrokerContext = {
  url: 'amqp://guest:guest@127.0.0.1:5672/',
  managementUrl: '',
  vhost: '',
  prefix: 'studio.',
};

export interface Deployment {
  readonly docId: string;
  /** brokerTargetKey of the context it went to */
  readonly target: string;
  readonly state: 'applied' | 'torn-down';
}

export interface BrokerSlice {
  broker: BrokerContext;
  setBroker: (patch: Partial<BrokerContext>) => void;
  /** the management API the last probe found for this broker URL (cleared with another URL) */
  managementFound: string | null;
  setManagementFound: (url: string | null) => void;
  /** nodes of the probed broker's cluster, for the linter's cluster rules (undefined until probed; cleared with another broker URL) */
  brokerNodes: number | undefined;
  setBrokerNodes: (n: number | undefined) => void;
  /** the last apply or teardown of a design at a broker target: a torn-down design cannot be traced */
  deployment: Deployment | null;
  setDeployment: (d: Deployment | null) => void;
}

export const createBrokerSlice: StateCreator<AppState, [], [], BrokerSlice> = (set) => ({
  broker: DEFAULT_BROKER,
  setBroker: (patch) =>
    set((s) => {
      const broker = { ...s.broker, ...patch };
      // what was learnt about another broker is not this one's
      return broker.url !== s.broker.url
        ? { broker, brokerNodes: undefined, managementFound: null }
        : broker.managementUrl !== s.broker.managementUrl
          ? { broker, managementFound: null }
          : { broker };
    }),
  managementFound: null,
  setManagementFound: (managementFound) => set({ managementFound }),
  brokerNodes: undefined,
  setBrokerNodes: (brokerNodes) => set({ brokerNodes }),
  deployment: null,
  setDeployment: (deployment) => set({ deployment }),
});
