/**
 * What an operate result belongs to: the open design and the broker context it was read in
 * (broker, vhost, prefix). Like every other result (store/resultsVersion.ts), one of another
 * design or vhost is never shown.
 */
import { useApp } from '../store/store';
import type { BrokerContext } from '../store/brokerSlice';
import { contextVhost } from '../broker/target';

function scopeKey(docId: string, c: BrokerContext): string {
  return JSON.stringify([docId, contextVhost(c), c.url.trim(), c.prefix]);
}

/** the scope of a result read now */
export function currentOperateScope(): string {
  const s = useApp.getState();
  return scopeKey(s.docId, s.broker);
}

export function useOperateScope(): string {
  const docId = useApp((s) => s.docId);
  const broker = useApp((s) => s.broker);
  return scopeKey(docId, broker);
}
