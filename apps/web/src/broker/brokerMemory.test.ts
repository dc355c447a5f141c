import { describe, expect, it } from 'vitest';
import { recallBroker, rememberBroker } from './brokerMemory';

/** a Storage of our own, so the test does not share the page's */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

describe('broker memory', () => {
  it('remembers the management URL, prefix and vhost per broker, never the password', () => {
    const st = memoryStorage();
    rememberBroker(
      'amqp://guest:secret@127.0.0.1:5673/',
      { managementUrl: 'http://127.0.0.1:15673', deployPrefix: 'p43.', deployVhost: 'v' },
      st,
    );
    rememberBroker(
      'amqp://guest:secret@127.0.0.1:5672/',
      { managementUrl: '', deployPrefix: 'p310.', deployVhost: '' },
      st,
    );
    expect(recallBroker('amqp://guest:secret@127.0.0.1:5673/', st)).toEqual({
      managementUrl: 'http://127.0.0.1:15673',
      deployPrefix: 'p43.',
      deployVhost: 'v',
    });
    expect(recallBroker('amqp://guest:secret@127.0.0.1:5672/', st)?.deployPrefix).toBe('p310.');
    expect(recallBroker('amqp://guest:secret@127.0.0.1:5674/', st)).toBeUndefined();
    expect(JSON.stringify([...Array(st.length).keys()].map((i) => st.getItem(st.key(i)!)))).not.toMatch(/secret/);
  });

  it('ignores what it cannot read', () => {
    const st = memoryStorage();
    st.setItem('retry-studio.brokers.v1', 'not json');
    expect(recallBroker('amqp://g:g@127.0.0.1:5672/', st)).toBeUndefined();
    rememberBroker('amqp://g:g@127.0.0.1:5672/', { managementUrl: 'm', deployPrefix: 'p', deployVhost: '' }, st);
    expect(recallBroker('amqp://g:g@127.0.0.1:5672/', st)?.managementUrl).toBe('m');
  });
});
