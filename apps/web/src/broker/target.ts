/** The broker target of every broker request (probe, plan, deploy, teardown, trace), from the store. */
import type { Target } from '@retry-studio/contract';

export interface BrokerFields {
  readonly brokerUrl: string;
  readonly managementUrl: string;
  readonly deployPrefix: string;
  readonly deployVhost: string;
}

export function brokerTarget(s: BrokerFields): Target {
  const t = (v: string) => v.trim() || undefined;
  return {
    broker: t(s.brokerUrl),
    managementUrl: t(s.managementUrl),
    prefix: s.deployPrefix || undefined,
    vhost: t(s.deployVhost),
  };
}

/** one string per broker target (URL, vhost, prefix): "is this the deployment the Broker tab tore down?" */
export function brokerTargetKey(s: BrokerFields): string {
  const t = brokerTarget(s);
  return JSON.stringify([t.broker ?? '', t.vhost ?? '', t.prefix ?? '']);
}
