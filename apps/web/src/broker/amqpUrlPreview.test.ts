import { describe, expect, it } from 'vitest';
import { managementCandidates } from '@retry-studio/contract';
import { endpointNamedBy, vhostNamedBy } from './amqpUrlPreview';

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

describe('the endpoint a broker URL names', () => {
  it('is the host and port, the protocol default without a port', () => {
    expect(endpointNamedBy('amqp://guest:guest@127.0.0.1:5673/h2-deploy')).toEqual({
      hostname: '127.0.0.1',
      port: 5673,
    });
    expect(endpointNamedBy('amqp://localhost')).toEqual({ hostname: 'localhost', port: 5672 });
    expect(endpointNamedBy('amqps://u:p@[::1]/')).toEqual({ hostname: '::1', port: 5671 });
    expect(endpointNamedBy('http://127.0.0.1:15672/')).toBeUndefined();
  });
  it('gives the management candidates the server tries (a :5673 broker is not told "port 15672" alone)', () => {
    expect(managementCandidates(endpointNamedBy('amqp://guest:guest@127.0.0.1:5673/')!)).toEqual([
      'http://127.0.0.1:15672',
      'http://127.0.0.1:15673',
    ]);
  });
});
