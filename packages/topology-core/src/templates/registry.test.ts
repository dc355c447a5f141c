import { describe, expect, it } from 'vitest';
import { buildTemplate, getTemplate, listTemplates } from './registry.js';
import { validateDesign } from '../model/validateDesign.js';
import { binaryDelayRoutingKey } from './binaryDelay.js';
import { coerceParam } from './params.js';

const ISSUE_IDS = [
  'requeue-once',
  'dlx-ttl-wait-queue',
  'republish-ttl',
  'delayed-exchange',
  'dlx-requeue-consumer',
  'dlx-delayed-requeue',
  'chained-ttl',
  'ttl-dlq-consumer',
  'radlx-simple',
  'radlx-delay-queue',
  'radlx-cycles',
  'radlx-priority-dlq',
  'spring-stateless',
  'spring-stateful',
  'quorum-delivery-limit',
  'binary-delay-levels',
  'quorum-delayed-retry',
];

describe('template registry', () => {
  it('has every id of issue 3', () => {
    expect(
      listTemplates()
        .map((t) => t.id)
        .sort(),
    ).toEqual([...ISSUE_IDS].sort());
  });

  it.each(ISSUE_IDS)('%s builds a valid design with its defaults', (id) => {
    const r = buildTemplate(id);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const v = validateDesign(r.template.design);
    expect(v.errors).toEqual([]);
    expect(r.template.explanation.length).toBeGreaterThan(100);
    expect(r.template.documented.length).toBeGreaterThan(0);
    expect(r.template.design.origin?.template).toBe(id);
    // every node drawn has a position
    for (const col of r.template.layout.columns)
      for (const n of col) expect(r.template.design.layout?.[n]).toBeDefined();
    // params schema is renderable
    for (const p of getTemplate(id)!.params) expect(p.label).toBeTruthy();
  });

  it('param errors name the param', () => {
    expect(buildTemplate('dlx-ttl-wait-queue', { maxRetries: 100 })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.maxRetries', code: 'param-invalid' }],
    });
    expect(buildTemplate('dlx-ttl-wait-queue', { delayMs: 1.5 })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.delayMs' }],
    });
    expect(buildTemplate('dlx-ttl-wait-queue', { prefix: 'amq.x' })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.prefix' }],
    });
    expect(buildTemplate('dlx-ttl-wait-queue', { bogus: 1 })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.bogus', code: 'param-unknown' }],
    });
    expect(buildTemplate('spring-stateless', { recoverer: 'shrug' })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.recoverer' }],
    });
    expect(buildTemplate('chained-ttl', { delaysMs: [] })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.delaysMs' }],
    });
    expect(buildTemplate('binary-delay-levels', { delaysMs: [1500] })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.delaysMs' }],
    });
    expect(buildTemplate('binary-delay-levels', { levels: 3, delaysMs: [8000] })).toMatchObject({
      ok: false,
      errors: [{ path: 'params.delaysMs' }],
    });
    expect(buildTemplate('nope')).toMatchObject({ ok: false, errors: [{ path: 'template' }] });
  });

  it('params change the design', () => {
    const r = buildTemplate('chained-ttl', { delaysMs: [100, 200], prefix: 'pay' });
    expect(r.ok && r.template.design.topology.queues.map((q) => q.name)).toEqual([
      'pay.work.0',
      'pay.work.1',
      'pay.work.2',
      'pay.wait.1',
      'pay.wait.2',
      'pay.parking',
    ]);
  });

  it('coerces CLI strings', () => {
    const spec = getTemplate('chained-ttl')!.params.find((p) => p.name === 'delaysMs')!;
    expect(coerceParam(spec, '1,2,3')).toEqual([1, 2, 3]);
  });

  it('binary routing keys', () => {
    expect(binaryDelayRoutingKey(5, 4, 'q')).toBe('0.1.0.1.q');
    expect(binaryDelayRoutingKey(0, 2, 'q')).toBe('0.0.q');
  });
});
