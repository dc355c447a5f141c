import { describe, expect, it } from 'vitest';
import { describeIssue, issueSubject } from './issueSubject.js';
import { validateDesign } from './validateDesign.js';
import { DESIGN_FORMAT, DESIGN_VERSION, type Design } from './design.js';

const design = (ttl: number): Design => ({
  format: DESIGN_FORMAT,
  version: DESIGN_VERSION,
  name: 'd',
  topology: {
    exchanges: [{ name: 'retry', type: 'direct' }],
    queues: [
      { name: 'work.q', arguments: {} },
      { name: 'wait.q', arguments: { 'x-message-ttl': ttl } },
    ],
    bindings: [{ source: 'retry', destination: 'wait.q', destination_type: 'queue', routing_key: 'wait' }],
  },
  consumers: [],
  publishers: [],
});

describe('issues name the object they are about', () => {
  it('a negative TTL on the second queue reads as wait.q, and marks its node', () => {
    const d = design(-5);
    const [issue] = validateDesign(d).errors;
    expect(issue?.path).toBe('topology.queues[1].arguments.x-message-ttl');
    expect(issueSubject(d, issue!.path)).toEqual({
      name: 'wait.q',
      node: 'queue:wait.q',
      objectPath: 'topology.queues[1]',
      field: 'x-message-ttl',
    });
    expect(describeIssue(d, issue!)).toMatch(/^wait\.q: x-message-ttl must be/);
    expect(validateDesign(design(5)).errors).toEqual([]);
  });

  it('bindings, bracketed argument keys, fields the message does not name, design-level paths', () => {
    const d = design(1);
    expect(issueSubject(d, 'topology.bindings[0].routing_key')?.name).toBe('binding retry -> wait.q');
    expect(issueSubject(d, 'topology.queues[0].arguments["x a"]')?.field).toBe('x a');
    expect(describeIssue(d, { path: 'topology.exchanges[0].type', code: 'x', message: 'unknown type' })).toBe(
      'retry: type: unknown type',
    );
    expect(describeIssue(d, { path: 'name', code: 'x', message: 'a design needs a name' })).toBe(
      'name: a design needs a name',
    );
    expect(issueSubject(d, 'topology.queues[7].name')).toEqual({
      name: 'queue 7',
      objectPath: 'topology.queues[7]',
      field: 'name',
    });
  });

  it('an issue from a definitions file (paths into the file) names its queue too', () => {
    const file = {
      queues: [
        { name: 'a', arguments: {} },
        { name: 'wait.q', arguments: { 'x-max-length': 'ten' } },
      ],
      exchanges: [],
      bindings: [],
    };
    const issue = {
      path: 'queues[1].arguments.x-max-length',
      code: 'x',
      message: 'x-max-length must be a non-negative integer, got the string "ten"',
    };
    expect(issueSubject(file, issue.path)).toMatchObject({
      name: 'wait.q',
      objectPath: 'queues[1]',
      field: 'x-max-length',
    });
    expect(describeIssue(file, issue)).toBe(
      'wait.q: x-max-length must be a non-negative integer, got the string "ten"',
    );
  });
});
