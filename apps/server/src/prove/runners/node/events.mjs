/** prove-app's line protocol for the Node.js runners: events on stdout, "stop" on stdin. */
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { setTimeout } from 'node:timers';

export function emit(job, event, fields = {}) {
  process.stdout.write(`PROVE ${job} ${JSON.stringify({ event, ...fields })}\n`);
}

/** the job's spec (a JSON file named by the first argument) */
export const readSpec = () => JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** Counts attempts per message body and says whether this one fails (always, or the first K). */
export function failer(failFirst) {
  const seen = new Map();
  return (body) => {
    const n = (seen.get(body) ?? 0) + 1;
    seen.set(body, n);
    return { n, fail: failFirst < 0 || n <= failFirst };
  };
}

/** AMQP header values as JSON (buffers and dates as text) */
export const plain = (v) =>
  JSON.parse(
    JSON.stringify(v ?? null, (_k, x) =>
      x && x.type === 'Buffer' && Array.isArray(x.data) ? Buffer.from(x.data).toString() : x,
    ),
  );

/** Runs `stop` when "stop" or "quit" arrives on stdin, or stdin ends; then says so and exits. */
export function onStop(job, stop) {
  let done = false;
  const end = async () => {
    if (done) return;
    done = true;
    await Promise.race([stop().catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
    emit(job, 'stopped');
    process.exit(0);
  };
  createInterface({ input: process.stdin })
    .on('line', (l) => /^(stop|quit)\b/.test(l.trim()) && end())
    .on('close', end);
}
