/**
 * What the fuzzer does not generate, or generates and then skips, because a real broker's answer
 * there depends on timing or on a choice RabbitMQ leaves open. Printed by `pnpm fuzz --help` and at
 * the start of a run; each is enforced where the comment beside the code says so.
 */
export const AVOIDED: readonly { readonly what: string; readonly why: string }[] = [
  {
    what: 'policy ties (two policies of equal priority matching one queue)',
    why: 'RabbitMQ picks one of them its own way; every generated policy has its own priority (generateScenario.ts)',
  },
  {
    what: 'publishes while consumers run',
    why: 'a publish racing a consumer\'s requeue or dead letter lands before or after it by timing; consumers attach once every publish is confirmed (start_consumers "after")',
  },
  {
    what: 'a TTL or a length limit on a queue that has a consumer',
    why: 'whether a message expires (or overflows) or is delivered first depends on how fast the consumer takes it; only consumer-less queues get TTLs and limits, and a run where a message with a TTL enters a consumed queue (a policy, a per-message TTL) or a policy limits its length is skipped (raceFilter.ts)',
  },
  {
    what: 'two sources feeding one queue within 100 ms of each other (simulated time; 400 ms when one is the publish steps)',
    why: "ordering between queues: two wait queues expiring into one work queue, a dead letter arriving while that queue's consumer is busy (on 4.3 its `redelivered` flag then depends on timing), an arrival racing a TTL expiry or an overflow; the simulator's timeline is checked and such a run is skipped (raceFilter.ts)",
  },
  {
    what: 'per-message TTL behind a longer one (or none) at the head of a consumer-less queue',
    why: 'a message expires only at the head, so when it goes depends on what is ahead of it and when the final drain reaches it; every publish of a run carries the same expiration or none, and a queue that would mix them is skipped (raceFilter.ts)',
  },
  {
    what: 'prefetch above 1, hold and the multiple settlements',
    why: 'with several deliveries in flight, the order of requeued messages depends on when each settlement reaches the broker; every consumer has prefetch 1',
  },
  {
    what: "a requeue as a consumer's last action, and runs that do not settle within 8 s or take over 60 deliveries",
    why: 'the last action repeats forever, and a run bounded by wall-clock time ends at a point that depends on speed',
  },
  {
    what: 'quiet periods close to settle_ms',
    why: 'the runner stops after settle_ms without a delivery or publish: settle_ms is the longest quiet gap in the simulated run plus 350 ms, at least 500 ms (a loaded broker stalls for a few hundred ms)',
  },
];

export function avoidedText(): string {
  return [
    'the generator avoids (the broker is not deterministic there):',
    ...AVOIDED.map((a) => `  - ${a.what}: ${a.why}`),
  ].join('\n');
}
