import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeDesignJson } from '@retry-studio/topology-core/io';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { runCliCaptured } from '../cliHarness.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'retry-cli-lint-'));
  const r = buildTemplate('quorum-delivery-limit');
  if (!r.ok) throw new Error('template');
  await writeFile(path.join(dir, 'd.json'), writeDesignJson(r.template.design));
  const delayed = buildTemplate('delayed-exchange');
  if (!delayed.ok) throw new Error('template');
  await writeFile(path.join(dir, 'delayed.json'), writeDesignJson(delayed.template.design));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCliCaptured(dir, argv);

describe('pnpm cli lint --nodes', () => {
  it('flags the classic dead-letter queue only for a cluster', async () => {
    expect((await cli('lint', 'd.json')).out).not.toContain('classic-queue-in-cluster');
    const r = await cli('lint', 'd.json', '--nodes', '3');
    expect(r.out).toMatch(
      /warning classic-queue-in-cluster: jobs\.dead is a classic dead-letter queue on a 3-node cluster/,
    );
  });
  it('refuses a count that is not a node count', async () => {
    const r = await cli('lint', 'd.json', '--nodes', 'three');
    expect(r.code).toBe(2);
    expect(r.err).toContain("--nodes must be a whole number of nodes >= 1, got 'three'");
  });
});

describe('pnpm cli lint --plugins (issue 38: a plugin exchange type the target lacks fails the import)', () => {
  const severity = async (...extra: string[]) => {
    const r = await cli('lint', 'delayed.json', '--json', ...extra);
    const f = JSON.parse(r.out).findings.find((x: { id: string }) => x.id === 'plugin-required');
    return [r.code, f?.severity];
  };
  it('not known: a warning; a target without it: an error (exit 1); a target with it: a note', async () => {
    expect(await severity()).toEqual([0, 'warning']);
    expect(await severity('--plugins', 'none')).toEqual([1, 'error']);
    expect(await severity('--plugins', 'rabbitmq_management,rabbitmq_prometheus')).toEqual([1, 'error']);
    expect(await severity('--plugins', 'rabbitmq_delayed_message_exchange')).toEqual([0, 'info']);
  });
  it('refuses a list that is not plugin names', async () => {
    const r = await cli('lint', 'delayed.json', '--plugins', 'delayed message');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--plugins must be "none" or plugin names separated by commas');
  });
});
