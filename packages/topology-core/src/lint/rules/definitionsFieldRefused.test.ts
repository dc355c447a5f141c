/**
 * Fields a broker line cannot import without (model/definitionFields.ts, measured on 3.10.8 and
 * 4.3.6 through POST /api/definitions/VHOST): the reader fills in the defaults, lint --profile
 * 3.10 and upgrade-check say the broker will not.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../io/load.js';
import { lintDesign } from '../lintDesign.js';
import { upgradeCheck } from '../../upgrade/upgradeCheck.js';

/** a hand-written file: two queues without auto_delete (one without durable), an exchange without durable */
const file = JSON.stringify({
  exchanges: [{ name: 'orders', type: 'topic' }],
  queues: [
    { name: 'orders.work', durable: true, arguments: {} },
    { name: 'orders.dlq', arguments: {} },
  ],
  bindings: [{ source: 'orders', destination: 'orders.work', destination_type: 'queue', routing_key: '#' }],
});

const read = () => {
  const r = loadDocument(file);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
};

describe('definitions-field-refused', () => {
  it('the reader says which fields the file leaves out', () => {
    expect(read().omittedFields).toEqual([
      { kind: 'exchange', name: 'orders', field: 'durable' },
      { kind: 'exchange', name: 'orders', field: 'auto_delete' },
      { kind: 'exchange', name: 'orders', field: 'internal' },
      { kind: 'exchange', name: 'orders', field: 'arguments' },
      { kind: 'queue', name: 'orders.work', field: 'auto_delete' },
      { kind: 'queue', name: 'orders.dlq', field: 'durable' },
      { kind: 'queue', name: 'orders.dlq', field: 'auto_delete' },
    ]);
  });
  it('lint --profile 3.10: an error per field the broker refuses; 4.3 none', () => {
    const r = read();
    const on = (profile: '3.10' | '4.3') =>
      lintDesign(r.design, { profile, omittedFields: r.omittedFields! }).filter(
        (f) => f.id === 'definitions-field-refused',
      );
    expect(on('3.10').map((f) => [f.severity, f.objects])).toEqual([
      ['error', ['exchange:orders']],
      ['error', ['queue:orders.work', 'queue:orders.dlq']],
      ['error', ['queue:orders.dlq']],
    ]);
    expect(on('3.10')[1]!.message).toBe(
      '2 queues (orders.work, orders.dlq) have no "auto_delete" field: RabbitMQ 3.10 refuses the import (400 function_clause, measured on 3.10.8; it had created nothing when it answered).',
    );
    expect(on('4.3')).toEqual([]);
  });
  it('upgrade-check: refused moving to 3.10, a note moving away from it', () => {
    const r = read();
    const to310 = upgradeCheck(r.design, { from: '4.3', to: '3.10', omittedFields: r.omittedFields! });
    expect(to310.findings.filter((f) => f.id === 'definitions-field-refused').map((f) => f.kind)).toEqual(['refused']);
    expect(to310.blocking).toBe(true);
    const from310 = upgradeCheck(r.design, { from: '3.10', to: '4.3', omittedFields: r.omittedFields! });
    expect(from310.findings.filter((f) => f.id === 'definitions-field-refused').map((f) => f.kind)).toEqual([
      'default-changed',
    ]);
  });
});
