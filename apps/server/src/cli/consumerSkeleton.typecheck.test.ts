/** Every template's generated consumer skeleton type-checks against amqplib's types. */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportConsumerSkeleton } from '@retry-studio/topology-core/io';
import { buildTemplate, listTemplates } from '@retry-studio/topology-core/templates';

const serverDir = path.resolve(__dirname, '../..');
// inside apps/server/node_modules so that `amqplib` and its types resolve
const dir = path.join(serverDir, 'node_modules', '.retry-studio-skeletons');
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('consumer skeletons', () => {
  it('type-check for every template', async () => {
    await mkdir(dir, { recursive: true });
    for (const t of listTemplates()) {
      const r = buildTemplate(t.id);
      if (!r.ok) throw new Error(t.id);
      await writeFile(path.join(dir, `${t.id}.ts`), exportConsumerSkeleton(r.template.design));
    }
    // a batch consumer: hold, the held counter, nack multiple, and a worker that acks with multiple
    const base = buildTemplate('dlx-ttl-wait-queue');
    if (!base.ok) throw new Error('dlx-ttl-wait-queue');
    const d = base.template.design;
    const q = d.consumers[0]!.queue;
    const batch = exportConsumerSkeleton({
      ...d,
      consumers: [
        {
          id: 'batch',
          queue: q,
          prefetch: 3,
          behaviour: {
            kind: 'router',
            rules: [
              { when: { kind: 'lt', counter: { kind: 'held' }, value: 3 }, then: { kind: 'hold' } },
              { then: { kind: 'reject', multiple: true } },
            ],
          },
        },
        {
          id: 'acks',
          queue: q,
          behaviour: {
            kind: 'worker',
            onSuccess: { kind: 'ack', multiple: true },
            onFailure: [{ then: { kind: 'requeue', multiple: true } }],
          },
        },
      ],
    });
    expect(batch).toContain('ch.nack(msg, true, false)');
    expect(batch).toContain('(held.length + 1) < 3');
    await writeFile(path.join(dir, 'batch-consumer.ts'), batch);
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { noEmit: true, types: ['node'], typeRoots: ['../../../../node_modules/@types', '../@types'] },
        include: ['*.ts'],
      }),
    );
    const r = await promisify(execFile)('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')], {
      cwd: serverDir,
    }).catch((e: { stdout: string; code: number }) => e);
    expect((r as { stdout: string }).stdout).toBe('');
  }, 60_000);
});
