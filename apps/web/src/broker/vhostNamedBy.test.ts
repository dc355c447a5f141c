import { describe, expect, it } from 'vitest';
import { vhostNamedBy } from './vhostNamedBy';

describe('the vhost a broker URL names', () => {
  it('is the path, decoded', () => {
    expect(vhostNamedBy('amqp://guest:guest@127.0.0.1:5672/walk-1')).toBe('walk-1');
    expect(vhostNamedBy('amqps://u:p@host/team%2Fa')).toBe('team/a');
  });
  it('is the default vhost without a path or with %2F', () => {
    expect(vhostNamedBy('amqp://guest:guest@127.0.0.1:5672/')).toBe('/');
    expect(vhostNamedBy('amqp://127.0.0.1')).toBe('/');
    expect(vhostNamedBy('amqp://127.0.0.1/%2F')).toBe('/');
  });
  it('is unknown for what is not an AMQP URL', () => {
    expect(vhostNamedBy('http://127.0.0.1:15672/')).toBeUndefined();
    expect(vhostNamedBy('amqp://h/a/b')).toBeUndefined();
  });
});
