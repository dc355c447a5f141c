/**
 * What one unit of work costs, calibrated on this code (Node 20, x86-64; `sizing.test.ts` keeps the
 * estimates above what a run holds, measured with process.memoryUsage in a fresh process):
 * - a simulated message (or cohort) held by a rehearsal: its plan entry, its publish step, the
 *   simulator's copy and the depth tracker's entry. 400,000 per-message dlx-ttl-wait-queue
 *   messages held 288 MB of heap at the end (720 B each); counted as 1,000 B;
 * - a depth sample of one queue: the series, its rounded copy in the report and its JSON. One day
 *   at 100 ms on 3 queues (2.6 million samples) held about 100 MB and wrote 30.9 MB of JSON
 *   (12 B each); counted as 64 B held, 12 B written;
 * - a step: one simulator hop, about 1 microsecond (2.46 million hops in 2.6 s); a delivery is
 *   about 3.2 hops (publish, route, enqueue, deliver, settle), counted as 4;
 * - a design object (queue, exchange, binding, policy, consumer) read and checked: 4 kB held
 *   (the parsed definitions, the design, the check's indexes) and 200 steps (lint over a
 *   3,600-object file: 0.7 s).
 */
export const UNIT_COSTS = {
  bytesPerSimulated: 1000,
  bytesPerSample: 64,
  answerBytesPerSample: 12,
  stepsPerDelivery: 4,
  bytesPerObject: 4096,
  stepsPerObject: 200,
  /** a step's time, ns (for the seconds a refusal states) */
  nsPerStep: 1000,
  /** what every piece of work holds whatever its size (the design, the report's fixed parts) */
  baseBytes: 1_000_000,
  baseAnswerBytes: 4096,
} as const;
