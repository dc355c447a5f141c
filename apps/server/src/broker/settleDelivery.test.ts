import { describe, expect, it } from 'vitest';
import type { Message } from 'amqplib';
import { scenarioAction, type ScenarioAction } from '@retry-studio/topology-core/scenario';
import { settleDelivery, isSettlement } from './settleDelivery.js';

/** the calls made on a channel, as amqplib's method names and arguments (the message left out) */
function callsFor(a: ScenarioAction): unknown[] {
  const calls: unknown[] = [];
  const ch = {
    ack: (_m: Message, multiple?: boolean) => void calls.push(['ack', multiple]),
    nack: (_m: Message, multiple?: boolean, requeue?: boolean) => void calls.push(['nack', multiple, requeue]),
    reject: (_m: Message, requeue?: boolean) => void calls.push(['reject', requeue]),
  };
  const action = scenarioAction(a);
  if (isSettlement(action)) settleDelivery(ch, {} as Message, action);
  return calls;
}

describe('settleDelivery', () => {
  it('maps every settling action to its AMQP call', () => {
    expect(callsFor('ack')).toEqual([['ack', false]]);
    expect(callsFor('reject')).toEqual([['reject', false]]);
    expect(callsFor('requeue')).toEqual([['nack', false, true]]);
    expect(callsFor('reject-requeue')).toEqual([['reject', true]]);
    expect(callsFor('ack-multiple')).toEqual([['ack', true]]);
    expect(callsFor('nack-multiple')).toEqual([['nack', true, false]]);
    expect(callsFor('nack-multiple-requeue')).toEqual([['nack', true, true]]);
  });

  it('hold and republish are no settlement', () => {
    expect(callsFor('hold')).toEqual([]);
    expect(callsFor({ republish: { exchange: 'x' } })).toEqual([]);
  });
});
