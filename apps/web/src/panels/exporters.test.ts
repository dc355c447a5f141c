import { describe, expect, it } from 'vitest';
import { ExportOptionsError } from '@retry-studio/topology-core/io';
import { type Design } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { exportFormats } from './exporters';

const design = (): Design => {
  const r = buildTemplate('dlx-ttl-wait-queue');
  if (!r.ok) throw new Error('build');
  return r.template.design;
};

describe('export panel formats', () => {
  it('offers every core format, each rendering with a file name', () => {
    const fs = exportFormats();
    expect(fs.map((f) => f.id)).toEqual(
      expect.arrayContaining(['rabbitmqadmin', 'rabbitmqadmin-v1', 'operator', 'terraform', 'asyncapi']),
    );
    for (const f of fs) {
      expect(f.render(design()).length).toBeGreaterThan(50);
      expect(f.filename(design())).toMatch(/^dlx-to-a-ttl-wait-queue\./);
    }
  });

  it('passes the options a format declares, and refuses an invalid one naming it', () => {
    const op = exportFormats().find((f) => f.id === 'operator')!;
    expect(op.options).toEqual(['cluster', 'vhost']);
    expect(op.render(design(), { cluster: 'prod-rabbit', vhost: 'jobs' })).toContain('name: "prod-rabbit"');
    expect(() => op.render(design(), { cluster: 'Prod Rabbit' })).toThrow(ExportOptionsError);
    expect(() => op.render(design(), { cluster: 'Prod Rabbit' })).toThrow(/^cluster: /);
  });
});
