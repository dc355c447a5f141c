/** The limit the finding names is the one in force: a policy's is named as the policy's, never as the 4.x default (issue 39). */
import { describe, expect, it } from 'vitest';
import { importAppConfig } from '../../appconfig/importApp.js';
import { lintDesign } from '../lintDesign.js';
import type { Design } from '../../model/design.js';

const program = {
  name: 'Program.cs',
  text: [
    'var c = new EndpointConfiguration("Sales");',
    'var r = c.Recoverability();',
    'r.Immediate(i => i.NumberOfRetries(25));',
  ].join('\n'),
};
const finding = (d: Design, profile: '3.10' | '4.x') =>
  lintDesign(d, { profile }).find((f) => f.id === 'immediate-retries-over-delivery-limit');

describe('immediate-retries-over-delivery-limit reads the effective delivery limit', () => {
  const design = importAppConfig([program]).design;
  const queue = design.consumers[0]!.queue;
  it("no limit set: 4.x's default of 20", () => {
    expect(finding(design, '4.x')?.message).toContain("delivery limit is 20 (RabbitMQ 4.x's default)");
  });
  it('a limit set by policy: named as the policy, with its value, on 3.10 too', () => {
    const byPolicy: Design = {
      ...design,
      topology: {
        ...design.topology,
        policies: [
          {
            name: 'limits',
            pattern: `^${queue}$`,
            'apply-to': 'queues',
            priority: 1,
            definition: { 'delivery-limit': 10 },
          },
        ],
      },
    };
    expect(finding(byPolicy, '4.x')?.message).toContain('delivery limit is 10 (policy limits)');
    expect(finding(byPolicy, '4.x')?.message).not.toContain('default');
    expect(finding(byPolicy, '3.10')?.message).toContain('delivery limit is 10 (policy limits)');
  });
});
