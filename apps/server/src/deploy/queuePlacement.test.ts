import { describe, expect, it } from 'vitest';
import { clusterView } from '../broker/cluster.js';
import { actualPlacement, expectedPlacement } from './queuePlacement.js';

const three = clusterView(['n1', 'n2', 'n3'].map((name) => ({ name, running: true })));
const oneDown = clusterView([
  { name: 'n1', running: true },
  { name: 'n2', running: true },
  { name: 'n3', running: false },
]);

describe('expectedPlacement', () => {
  it('a quorum queue: one member per running node', () => {
    expect(expectedPlacement({ 'x-queue-type': 'quorum' }, three, 'n2')).toEqual({
      type: 'quorum',
      source: 'expected',
      replicas: 3,
      members: ['n1', 'n2', 'n3'],
    });
    expect(expectedPlacement({ 'x-queue-type': 'quorum' }, oneDown, 'n2').replicas).toBe(2);
  });
  it('x-quorum-initial-group-size and x-initial-cluster-size cap the replicas', () => {
    expect(
      expectedPlacement({ 'x-queue-type': 'quorum', 'x-quorum-initial-group-size': 2 }, three, 'n1').replicas,
    ).toBe(2);
    expect(expectedPlacement({ 'x-queue-type': 'stream', 'x-initial-cluster-size': 1 }, three, 'n1')).toMatchObject({
      type: 'stream',
      replicas: 1,
    });
    expect(
      expectedPlacement({ 'x-queue-type': 'quorum', 'x-quorum-initial-group-size': 5 }, three, 'n1').replicas,
    ).toBe(3);
  });
  it('a classic queue: one copy on the node the deploy connects to', () => {
    expect(expectedPlacement({}, three, 'n2')).toEqual({
      type: 'classic',
      source: 'expected',
      replicas: 1,
      members: ['n2'],
      leader: 'n2',
    });
  });
});

describe('actualPlacement', () => {
  const base = { vhost: '/', durable: true, auto_delete: false, arguments: {} };
  it('reads members, leader and online of a quorum queue', () => {
    expect(
      actualPlacement({
        ...base,
        name: 'q',
        type: 'quorum',
        members: ['n1', 'n2', 'n3'],
        leader: 'n3',
        node: 'n3',
        online: ['n1', 'n3'],
      }),
    ).toEqual({
      type: 'quorum',
      source: 'actual',
      replicas: 3,
      members: ['n1', 'n2', 'n3'],
      leader: 'n3',
      online: ['n1', 'n3'],
    });
  });
  it('a classic queue lives on its node', () => {
    expect(actualPlacement({ ...base, name: 'q', type: 'classic', node: 'n2' })).toEqual({
      type: 'classic',
      source: 'actual',
      replicas: 1,
      members: ['n2'],
      leader: 'n2',
    });
  });
});
