/**
 * Polls the depths of every queue of the vhost: one request per interval (the server makes one
 * management request for the whole vhost), paused while the tab is hidden.
 */
import { useEffect } from 'react';
import { useApp } from '../store/store';
import { operateAt } from '../broker/target';
import { operateApi } from './operateApi';
import { useOperate } from './operateStore';

export const DEPTHS_INTERVAL_MS = 3000;

export function useDepthsPolling(): void {
  const polling = useOperate((s) => s.polling);
  useEffect(() => {
    if (!polling) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      timer = undefined;
      if (stopped || document.hidden) return;
      try {
        const r = await operateApi.depths(operateAt(useApp.getState().broker));
        if (!stopped)
          useOperate.getState().set({ depths: Object.fromEntries(r.queues.map((q) => [q.name, q])), depthsAt: r.at });
      } catch (e) {
        if (!stopped) {
          useOperate.getState().set({ polling: false });
          useApp.getState().notify(`live depths stopped: ${(e as Error).message}`, 'error');
        }
        return;
      }
      if (!stopped && !document.hidden) timer = setTimeout(tick, DEPTHS_INTERVAL_MS);
    };
    const onVisibility = () => {
      if (!document.hidden && timer === undefined) void tick();
    };
    document.addEventListener('visibilitychange', onVisibility);
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [polling]);
}
