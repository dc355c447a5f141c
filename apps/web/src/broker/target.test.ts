// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_BROKER, type BrokerContext } from '../store/brokerSlice';
import { brokerTarget, brokerTargetKey, contextVhost, managementOf, operateAt } from './target';

const ctx = (patch: Partial<BrokerContext>): BrokerContext => ({ ...DEFAULT_BROKER, ...patch });

describe('the broker context as a request target', () => {
  it('deploy, trace and operate go to the same broker and vhost; operate reads names as they are (no prefix)', () => {
    const c = ctx({ url: 'amqp://guest:guest@127.0.0.1:5673/', vhost: 'h2-deploy', prefix: 'studio.' });
    expect(brokerTarget(c)).toEqual({
      broker: 'amqp://guest:guest@127.0.0.1:5673/',
      managementUrl: undefined,
      prefix: 'studio.',
      vhost: 'h2-deploy',
    });
    expect(operateAt(c)).toEqual({ broker: c.url, managementUrl: undefined, vhost: 'h2-deploy' });
  });
  it("the vhost is the field's, else the one the URL names", () => {
    expect(contextVhost(ctx({ url: 'amqp://g:g@h:5673/walk-1', vhost: '' }))).toBe('walk-1');
    expect(contextVhost(ctx({ url: 'amqp://g:g@h:5673/walk-1', vhost: ' h2 ' }))).toBe('h2');
    expect(contextVhost(ctx({ url: 'amqp://g:g@h:5673/', vhost: '' }))).toBe('/');
  });
  it('the management API: given, found by the probe, else the candidates the server tries in turn', () => {
    const c = ctx({ url: 'amqp://guest:guest@127.0.0.1:5673/' });
    expect(managementOf(c, null)).toEqual({
      kind: 'candidates',
      urls: ['http://127.0.0.1:15672', 'http://127.0.0.1:15673'],
    });
    expect(managementOf(c, 'http://127.0.0.1:15673')).toEqual({ kind: 'found', url: 'http://127.0.0.1:15673' });
    expect(managementOf({ ...c, managementUrl: ' http://m:1 ' }, 'http://127.0.0.1:15673')).toEqual({
      kind: 'given',
      url: 'http://m:1',
    });
  });
  it('one key per broker, vhost and prefix (a teardown is of that deployment only)', () => {
    const a = ctx({ vhost: 'v', prefix: 'p.' });
    expect(brokerTargetKey(a)).toBe(brokerTargetKey({ ...a }));
    expect(brokerTargetKey(a)).not.toBe(brokerTargetKey({ ...a, prefix: 'q.' }));
    expect(brokerTargetKey(a)).not.toBe(brokerTargetKey({ ...a, vhost: 'w' }));
  });
});
