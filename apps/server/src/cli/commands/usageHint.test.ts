/** "run ... --help for usage" follows a usage error, never a broker's (the question was right; the broker was not there). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cliHarness.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-hint-'));
// nothing listens on port 1: the connection is refused at once
const NOBODY = 'amqp://guest:guest@127.0.0.1:1/';

describe('the usage hint', () => {
  it.each([
    [['rehearse', 'dlx-ttl-wait-queue', '--rate', '1', '--duration', '10s', '--verify-on', NOBODY]],
    [['cleanup', '--url', NOBODY]],
  ])('not after a broker that cannot be reached: %j', async (argv) => {
    const r = await runCliCaptured(dir, argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/connection refused|not reachable/);
    expect(r.err).not.toContain('--help');
  });

  it('after a usage error', async () => {
    const r = await runCliCaptured(dir, ['rehearse', 'dlx-ttl-wait-queue', '--rate', 'fast', '--duration', '10s']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('run "pnpm cli rehearse --help" for usage');
  });
});
