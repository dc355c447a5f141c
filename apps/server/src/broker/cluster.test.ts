import { describe, expect, it } from 'vitest';
import { clusterView } from './cluster.js';
import type { MgmtNode } from './management.js';

const node = (name: string, running = true, version = '4.3.6'): MgmtNode => ({
  name,
  running,
  ...(running
    ? {
        applications: [
          { name: 'rabbit', version },
          { name: 'ra', version: '2.17.1' },
        ],
      }
    : {}),
});

describe('clusterView', () => {
  it('lists nodes by name with the rabbit version, no problems when all run one version', () => {
    const v = clusterView([node('b@h'), node('a@h')], 'c');
    expect(v).toEqual({
      clusterName: 'c',
      nodes: [
        { name: 'a@h', running: true, version: '4.3.6' },
        { name: 'b@h', running: true, version: '4.3.6' },
      ],
      running: 2,
      problems: [],
    });
  });

  it('flags a node that is down', () => {
    const v = clusterView([node('a@h'), node('b@h', false)]);
    expect(v.running).toBe(1);
    expect(v.problems).toEqual([
      {
        kind: 'node-down',
        node: 'b@h',
        message: expect.stringMatching(/^node b@h is not running: quorum queues declared now get fewer members/),
      },
    ]);
  });

  it('flags mixed versions, naming each node', () => {
    const v = clusterView([node('a@h', true, '4.2.1'), node('b@h'), node('c@h')]);
    expect(v.problems).toEqual([
      {
        kind: 'mixed-versions',
        versions: { 'a@h': '4.2.1', 'b@h': '4.3.6', 'c@h': '4.3.6' },
        message: expect.stringContaining('mixed RabbitMQ versions (a@h 4.2.1, b@h 4.3.6, c@h 4.3.6)'),
      },
    ]);
  });
});
