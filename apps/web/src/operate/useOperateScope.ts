/**
 * What an operate result belongs to: the open design and the vhost (and broker) it was read from.
 * Like every other result (store/resultsVersion.ts), one of another design or vhost is never shown.
 */
import { useApp } from '../store/store';
import { vhostNamedBy } from '../broker/vhostNamedBy';
import { useOperate } from './operateStore';

function scopeKey(docId: string, vhost: string, brokerUrl: string): string {
  return JSON.stringify([docId, vhost.trim() || vhostNamedBy(brokerUrl) || '/', brokerUrl.trim()]);
}

/** the scope of a result read now */
export function currentOperateScope(): string {
  return scopeKey(useApp.getState().docId, useOperate.getState().vhost, useApp.getState().brokerUrl);
}

export function useOperateScope(): string {
  const docId = useApp((s) => s.docId);
  const brokerUrl = useApp((s) => s.brokerUrl);
  const vhost = useOperate((s) => s.vhost);
  return scopeKey(docId, vhost, brokerUrl);
}
