import { describe, expect, it } from 'vitest';
import { createAppStore } from './store';

describe('the broker context in the store', () => {
  it('another broker URL forgets what was learnt about the last one (cluster size, management API found)', () => {
    const s = createAppStore();
    s.getState().setBrokerNodes(3);
    s.getState().setManagementFound('http://127.0.0.1:15673');
    s.getState().setBroker({ vhost: 'h2-deploy', prefix: 'x.' });
    expect(s.getState().managementFound).toBe('http://127.0.0.1:15673');
    expect(s.getState().brokerNodes).toBe(3);
    s.getState().setBroker({ url: 'amqp://guest:guest@127.0.0.1:5672/x' });
    expect(s.getState().managementFound).toBeNull();
    expect(s.getState().brokerNodes).toBeUndefined();
    // the vhost and prefix stay: changing the context never opens or replaces a design
    expect(s.getState().broker.vhost).toBe('h2-deploy');
  });
  it('a typed management URL replaces the one found', () => {
    const s = createAppStore();
    s.getState().setManagementFound('http://127.0.0.1:15673');
    s.getState().setBroker({ managementUrl: 'http://127.0.0.1:15672' });
    expect(s.getState().managementFound).toBeNull();
  });
  it('changing it leaves the open design alone', () => {
    const s = createAppStore();
    const design = s.getState().design;
    s.getState().setBroker({ url: 'amqp://guest:guest@127.0.0.1:5673/', vhost: 'v', prefix: '' });
    expect(s.getState().design).toBe(design);
  });
});
