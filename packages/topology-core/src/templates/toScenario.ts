/**
 * A built template -> a `retry-scenario/1` file that a real broker can replay: the template's
 * declarative consumers are turned into per-queue action scripts by simulating one failing
 * message, so the broker run checks exactly the path the simulator predicts.
 * Not every template can be written this way: the scenario format always copies headers on
 * republish (binary-delay-levels strips them), and in-process retries are invisible to a broker.
 */
import type { AmqpTable, AmqpValue } from '../model/definitions.js';
import type { Scenario, ScenarioAction, ScenarioConsumer } from '../scenario/types.js';
import type { SimEvent } from '../sim/events.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import type { BuiltTemplate } from './types.js';

export type ToScenarioResult =
  { readonly ok: true; readonly scenario: Scenario } | { readonly ok: false; readonly reason: string };

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function templateToScenario(built: BuiltTemplate, name: string): ToScenarioResult {
  const d = built.design;
  for (const c of d.consumers) {
    const b = c.behaviour;
    const rules = b.kind === 'worker' ? b.onFailure : b.kind === 'router' ? b.rules : [];
    if (rules.some((r) => r.then.kind === 'republish' && r.then.copyHeaders === false))
      return {
        ok: false,
        reason: `${c.id} republishes without the old headers, which retry-scenario/1 cannot express`,
      };
  }
  const pub = d.publishers[0];
  if (!pub) return { ok: false, reason: 'no publisher' };
  const result = simulate({
    ...designToSimulation({ ...d, publishers: [pub] }, { messages: 1, failure: { kind: 'always' } }),
    maxTimeMs: 3600_000,
  });
  if (result.truncated) return { ok: false, reason: 'the message never settles under fail-always' };
  const ev = result.events;
  const consumers: ScenarioConsumer[] = [];
  let longestGap = 0;
  for (let i = 1; i < ev.length; i++) longestGap = Math.max(longestGap, ev[i]!.t - ev[i - 1]!.t);
  for (const c of d.consumers) {
    const actions: ScenarioAction[] = [];
    for (let i = 0; i < ev.length; i++) {
      const e = ev[i]!;
      if (e.kind !== 'delivered' || e.consumer !== c.id) continue;
      let republish: Extract<SimEvent, { kind: 'published' }> | undefined;
      let outcome: ScenarioAction | undefined;
      for (let j = i + 1; j < ev.length && !outcome; j++) {
        const f = ev[j]!;
        if (f.msgId !== e.msgId) continue;
        if (f.kind === 'published' && f.origin.kind === 'consumer' && f.origin.id === c.id && !republish) republish = f;
        else if ((f.kind === 'acked' || f.kind === 'rejected' || f.kind === 'requeued') && f.consumer === c.id) {
          if (f.kind === 'rejected') outcome = 'reject';
          else if (f.kind === 'requeued') outcome = f.via === 'reject' ? 'reject-requeue' : 'requeue';
          else if (republish) {
            const headers: Record<string, AmqpValue> = {};
            for (const [k, v] of Object.entries(republish.headers))
              if (k !== 'x-death' && !same(e.headers[k], v)) headers[k] = v;
            outcome = {
              republish: {
                exchange: republish.exchange,
                routing_key: republish.routingKey,
                ...(Object.keys(headers).length ? { headers: headers as AmqpTable } : {}),
                ...(republish.expiration !== undefined ? { expiration: republish.expiration } : {}),
              },
            };
          } else outcome = 'ack';
        }
      }
      if (!outcome) return { ok: false, reason: `no outcome for a delivery to ${c.id}` };
      actions.push(outcome);
    }
    if (actions.length === 0) actions.push('ack');
    consumers.push({
      queue: c.queue,
      actions,
      ...(c.prefetch !== undefined && c.prefetch !== 1 ? { prefetch: c.prefetch } : {}),
    });
  }
  return {
    ok: true,
    scenario: {
      format: 'retry-scenario/1',
      name,
      description: `Template ${built.id} (${Object.entries(built.params)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
        .join(', ')}), one message that always fails: the consumers' actions are what the template's behaviours do.`,
      ...(built.requires.length ? { requires: built.requires } : {}),
      topology: d.topology,
      consumers,
      steps: [
        {
          publish: {
            exchange: pub.exchange,
            routing_key: pub.routingKey,
            body: 'msg-1',
            ...(pub.properties ? { properties: pub.properties as { headers?: AmqpTable; expiration?: string } } : {}),
          },
        },
      ],
      // long enough to outlast the longest wait (the broker run stops after this much silence)
      settle_ms: Math.max(600, longestGap + 1000),
    },
  };
}
