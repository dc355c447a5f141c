import { describe, expect, it } from 'vitest';
import { validateTopology } from './validateTopology.js';
import { validateDesign } from './validateDesign.js';
import { queueEffectiveSettings } from './effectiveSettings.js';
import { T, C, A } from '../../testing/builders.js';
import type { Design } from './design.js';
import type { ConsumerSpec } from './consumer.js';
import type { QueueDef } from './definitions.js';

// the rules as measured on RabbitMQ 3.10.8 and 4.3.6 (every refused one: "invalid arg ... of queue type rabbit_stream_queue")
const stream = (args: Record<string, string | number | boolean> = {}, over: Partial<QueueDef> = {}): QueueDef => ({
  ...T.queue('s', { stream: true, args }),
  ...over,
});
const errors = (q: QueueDef) => validateTopology(T.topology(q)).errors.map((e) => `${e.path} ${e.code}`);

describe('stream queue rules', () => {
  it('accepts the stream arguments', () => {
    expect(
      errors(
        stream({
          'x-max-length-bytes': 1_000_000,
          'x-max-age': '7D',
          'x-stream-max-segment-size-bytes': 500_000,
          'x-initial-cluster-size': 3,
          'x-queue-leader-locator': 'balanced',
        }),
      ),
    ).toEqual([]);
  });

  it.each([
    'x-dead-letter-exchange',
    'x-message-ttl',
    'x-expires',
    'x-max-length',
    'x-overflow',
    'x-delivery-limit',
    'x-single-active-consumer',
    'x-max-priority',
  ])('refuses %s, naming the field and why', (key) => {
    const v =
      key === 'x-dead-letter-exchange'
        ? 'dlx'
        : key === 'x-overflow'
          ? 'reject-publish'
          : key === 'x-single-active-consumer'
            ? true
            : 5;
    const r = validateTopology(T.topology(stream({ [key]: v })));
    const e = r.errors.find((x) => x.path === `queues[0].arguments.${key}`);
    expect(e?.code).toBe('argument-queue-type');
    expect(e?.message).toMatch(/not supported by streams/);
  });

  it('x-max-age is a number and one unit', () => {
    expect(errors(stream({ 'x-max-age': '1h' }))).toEqual([]);
    expect(errors(stream({ 'x-max-age': '7X' }))).toEqual(['queues[0].arguments.x-max-age argument-value']);
    expect(errors(stream({ 'x-max-age': 7 }))).toEqual(['queues[0].arguments.x-max-age argument-value']);
  });

  it('stream-only arguments are refused on a classic queue', () => {
    expect(
      validateTopology(T.topology(T.queue('c', { args: { 'x-max-age': '1D' } }))).errors.map((e) => e.code),
    ).toEqual(['argument-queue-type']);
  });

  it('a stream is durable, not auto-delete, not exclusive', () => {
    expect(errors(stream({}, { durable: false }))).toEqual(['queues[0].durable stream-not-durable']);
    expect(errors(stream({}, { auto_delete: true }))).toEqual(['queues[0].auto_delete stream-auto-delete']);
  });

  it('a policy applies to a stream only the keys a stream reads', () => {
    const policies = [T.policy('p', '^s$', { 'max-age': '1D', 'message-ttl': 1000, 'max-length': 3 })];
    const s = queueEffectiveSettings(stream(), { policies }).settings;
    expect(Object.keys(s).sort()).toEqual(['x-max-age', 'x-queue-type']);
  });
});

describe('a consumer of a stream', () => {
  const design = (c: ConsumerSpec): Design => ({
    format: 'retry-studio/design',
    version: 1,
    name: 'd',
    topology: T.topology(stream()),
    consumers: [c],
    publishers: [],
  });
  const issues = (c: ConsumerSpec) => validateDesign(design(c)).errors.map((e) => `${e.path} ${e.code}`);

  it('acks or republishes; reject and requeue are errors naming the action', () => {
    expect(issues(C.script('s', A.ack))).toEqual([]);
    expect(issues(C.script('s', A.republish('')))).toEqual([]);
    expect(issues({ ...C.script('s', A.ack, A.reject), id: 'r' })).toEqual([
      'consumers[0].behaviour.actions[1].kind stream-no-reject',
    ]);
    expect(issues({ ...C.worker('s', [{ then: A.requeue }]), id: 'w' })).toEqual([
      'consumers[0].behaviour.onFailure[0].then.kind stream-no-reject',
    ]);
  });

  it('needs a prefetch and a valid offset', () => {
    expect(issues({ ...C.script('s', A.ack), prefetch: 0 })).toEqual(['consumers[0].prefetch stream-prefetch']);
    expect(issues({ ...C.script('s', A.ack), streamOffset: 'middle' as never })).toEqual([
      'consumers[0].streamOffset stream-offset',
    ]);
    expect(issues({ ...C.script('s', A.ack), streamOffset: 5 })).toEqual([]);
  });
});
