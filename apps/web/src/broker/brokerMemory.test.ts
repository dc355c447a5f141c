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
  it('remembers the management URL, prefix and vhost per broker, never the user or password', () => {
    const st = memoryStorage();
    rememberBroker(
      'amqp://guest:secret@127.0.0.1:5673/',
      { managementUrl: 'http://127.0.0.1:15673', prefix: 'p43.', vhost: 'v' },
      st,
    );
    rememberBroker('amqp://guest:secret@127.0.0.1:5672/', { managementUrl: '', prefix: 'p310.', vhost: '' }, st);
    expect(recallBroker('amqp://guest:secret@127.0.0.1:5673/', st)).toEqual({
      managementUrl: 'http://127.0.0.1:15673',
      prefix: 'p43.',
      vhost: 'v',
    });
    expect(recallBroker('amqp://guest:secret@127.0.0.1:5672/', st)?.prefix).toBe('p310.');
    expect(recallBroker('amqp://guest:secret@127.0.0.1:5674/', st)).toBeUndefined();
    const stored = JSON.stringify([...Array(st.length).keys()].map((i) => st.getItem(st.key(i)!)));
    expect(stored).not.toMatch(/secret/);
    expect(stored).not.toMatch(/guest/);
  });

  it('ignores what it cannot read', () => {
    const st = memoryStorage();
    st.setItem('retry-studio.brokers.v2', 'not json');
    expect(recallBroker('amqp://g:g@127.0.0.1:5672/', st)).toBeUndefined();
    rememberBroker('amqp://g:g@127.0.0.1:5672/', { managementUrl: 'm', prefix: 'p', vhost: '' }, st);
    expect(recallBroker('amqp://g:g@127.0.0.1:5672/', st)?.managementUrl).toBe('m');
  });
});
