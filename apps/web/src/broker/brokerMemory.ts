/**
 * The management URL, prefix and vhost used with each broker, remembered in localStorage so that
 * switching between brokers (3.10 on 5672, 4.3 on 5673) brings back each one's settings. Keyed by
 * the broker URL without its user and password: credentials are never stored.
 */
import type { BrokerContext } from '../store/brokerSlice';

const STORAGE_KEY = 'retry-studio.brokers.v2';
const MAX_BROKERS = 20;

export type BrokerSettings = Pick<BrokerContext, 'managementUrl' | 'prefix' | 'vhost'>;

type Stored = Record<string, BrokerSettings & { readonly at: number }>;

function read(storage: Storage): Stored {
  try {
    const v = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Stored) : {};
  } catch {
    return {};
  }
}

/** `amqp://host:port/vhost`: no userinfo */
export const brokerKey = (brokerUrl: string): string => brokerUrl.trim().replace(/^(amqps?:\/\/)[^@/?#]*@/i, '$1');

export function recallBroker(brokerUrl: string, storage: Storage = localStorage): BrokerSettings | undefined {
  const hit = read(storage)[brokerKey(brokerUrl)];
  if (!hit || typeof hit.managementUrl !== 'string' || typeof hit.prefix !== 'string' || typeof hit.vhost !== 'string')
    return undefined;
  return { managementUrl: hit.managementUrl, prefix: hit.prefix, vhost: hit.vhost };
}

export function rememberBroker(brokerUrl: string, settings: BrokerSettings, storage: Storage = localStorage): void {
  if (brokerUrl.trim() === '') return;
  const all = read(storage);
  all[brokerKey(brokerUrl)] = {
    managementUrl: settings.managementUrl,
    prefix: settings.prefix,
    vhost: settings.vhost,
    at: Date.now(),
  };
  // keep the most recently used
  const kept = Object.entries(all)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX_BROKERS);
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    /* storage full or disabled: settings just are not remembered */
  }
}
