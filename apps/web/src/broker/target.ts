/** The broker context (store/brokerSlice.ts) as each request's target: probe, plan, deploy, teardown, trace, operate. */
import { managementCandidates, type OperateAt, type Target } from '@retry-studio/contract';
import type { BrokerContext } from '../store/brokerSlice';
import { endpointNamedBy, vhostNamedBy } from './amqpUrlPreview';

const given = (v: string) => v.trim() || undefined;

export function brokerTarget(c: BrokerContext): Target {
  return {
    broker: given(c.url),
    managementUrl: given(c.managementUrl),
    prefix: c.prefix || undefined,
    vhost: given(c.vhost),
  };
}

/** operate reads a vhost as it is: no prefix in the request (the panels map names through it) */
export function operateAt(c: BrokerContext): OperateAt {
  return { broker: given(c.url), managementUrl: given(c.managementUrl), vhost: given(c.vhost) };
}

/** the vhost the context acts on: the field, else the one the URL names */
export function contextVhost(c: BrokerContext): string {
  return c.vhost.trim() || vhostNamedBy(c.url) || '/';
}

/** where the management API is or will be looked for: the field, the probe's find, else the server's candidates in turn */
export function managementOf(
  c: BrokerContext,
  found: string | null,
):
  | { readonly kind: 'given' | 'found'; readonly url: string }
  | { readonly kind: 'candidates'; readonly urls: string[] } {
  if (c.managementUrl.trim()) return { kind: 'given', url: c.managementUrl.trim() };
  if (found) return { kind: 'found', url: found };
  const endpoint = endpointNamedBy(c.url || 'amqp://127.0.0.1');
  return { kind: 'candidates', urls: endpoint ? managementCandidates(endpoint) : [] };
}

/** one string per broker target (URL, vhost, prefix): "is this the deployment the Broker tab tore down?" */
export function brokerTargetKey(c: BrokerContext): string {
  const t = brokerTarget(c);
  return JSON.stringify([t.broker ?? '', t.vhost ?? '', t.prefix ?? '']);
}
