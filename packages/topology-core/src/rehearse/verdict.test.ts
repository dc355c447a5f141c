import { describe, expect, it } from 'vitest';
import { templateDesign } from '../../testing/templateDesign.js';
import { uniformCalibration } from '../../testing/calibrationFixtures.js';
import { rehearse } from './rehearse.js';
import { rehearsalVerdict } from './verdict.js';

const outage = (target: string, startMs: number, endMs: number) => ({ target, consumerOutages: [{ startMs, endMs }] });
const calibration = uniformCalibration({ ramBytes: 640, bodyInRam: 1, diskBytes: 200 });

describe('the verdict: the conclusion in words, the same for the CLI and the browser', () => {
  it('what peaks, the node, what is lost and why, when back to normal, what to change', () => {
    const d = templateDesign('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
    const r = rehearse(
      d,
      { rate: 10, durationMs: 60_000, targets: [outage('worker', 10_000, 40_000)] },
      { calibration },
    );
    const text = rehearsalVerdict(r).map((l) => `${l.kind}${l.bad ? '!' : ''}: ${l.text}`);
    expect(text[0]).toBe('peak: orders.wait peaks at 100 messages (162.5 KiB RAM, 119.5 KiB disk) at 19.9 s.');
    expect(text[1]).toMatch(
      /^node: The node peaks at .* RAM \(.*% of its 1\.6 GiB watermark on 4 GiB\) and .* disk, by RabbitMQ 3\.10\.8's measured figures\.$/,
    );
    expect(text).toContain(
      'loss!: 200 (33.3%) end parked in orders.parking because 6 attempts over 10 s cover less than the 30 s outage.',
    );
    expect(text.find((t) => t.startsWith('back:'))).toMatch(/^back: Back to normal 1\.9 s after the last outage ends/);
    expect(text.at(-1)).toMatch(/^change: To change: make the retries span the outage/);
  });

  it('poison is named as a reason; a hot loop and an alarm are bad news', () => {
    const wait = templateDesign('dlx-ttl-wait-queue', { delayMs: 1000, maxRetries: 2 });
    const p = rehearse(wait, { rate: 20, durationMs: 30_000, poison: 0.05 }, { calibration });
    expect(rehearsalVerdict(p).find((l) => l.kind === 'loss')?.text).toMatch(
      /end parked in orders\.parking because about \d+ are poison and always fail\.$/,
    );
    const d = templateDesign('quorum-delivery-limit', { deliveryLimit: 3 });
    const r = rehearse(
      d,
      { rate: 50, durationMs: 60_000, afterMs: 0, profile: '4.3', poison: 0.02, brokerMemoryBytes: 8_000 },
      { calibration: uniformCalibration({ version: '4.3.6', ramBytes: 100, ceilings: { requeuePerSec: 3000 } }) },
    );
    const lines = rehearsalVerdict(r);
    expect(lines.find((l) => l.kind === 'loop')?.text).toMatch(
      /^jobs\.q runs a hot loop: messages are redelivered at [0-9,]+\/s, the broker's measured rate/,
    );
    expect(lines.find((l) => l.kind === 'alarm')?.text).toMatch(
      /reaches its memory watermark .* every publisher is blocked/,
    );
    expect(lines.filter((l) => l.bad).length).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)?.text).toMatch(/a delay before it requeues .* give the node more RAM/);
    const nothing = rehearse(templateDesign('dlx-ttl-wait-queue', {}), { rate: 5, durationMs: 10_000 });
    const ok = rehearsalVerdict(nothing);
    expect(ok.some((l) => l.bad)).toBe(false);
    expect(ok.at(-1)?.text).toBe('Nothing to change for this load.');
  });
});
