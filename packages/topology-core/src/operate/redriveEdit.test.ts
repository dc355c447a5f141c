import { describe, expect, it } from 'vitest';
import { editCopy, headerNameProblem, parseSetHeader, REDRIVE_EDITED_HEADER } from './redriveEdit.js';

describe('editCopy', () => {
  it('patches a JSON body, sets headers, and records what changed', () => {
    const r = editCopy(
      '{"amount":"12","tenant":"a"}',
      { patch: [{ op: 'replace', path: '/amount', value: 12 }], setHeaders: { 'x-fixed-by': 'ops' } },
      'm-1',
    );
    expect(r).toEqual({
      ok: true,
      body: '{"amount":12,"tenant":"a"}',
      headers: { 'x-fixed-by': 'ops', [REDRIVE_EDITED_HEADER]: 'patch replace /amount; headers x-fixed-by' },
    });
  });
  it('keeps the body when only headers change', () => {
    expect(editCopy('not json', { setHeaders: { a: '1' } }, 'm-1')).toMatchObject({
      ok: true,
      body: undefined,
      headers: { a: '1' },
    });
  });
  it('refuses --patch on a body that is not JSON, naming the message', () => {
    expect(editCopy('plain', { patch: [{ op: 'remove', path: '/a' }] }, 'm-7')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^message m-7: the body is not JSON/),
    });
  });
  it('a whole new body (the one-message editor) replaces a plain-text body', () => {
    const r = editCopy(
      'order-0 plain',
      { patch: [{ op: 'replace', path: '', value: { order: 0, fixed: true } }] },
      '#0',
    );
    expect(r).toMatchObject({ ok: true, body: '{"order":0,"fixed":true}' });
  });
  it('a patch that does not apply: the message stays, with the operation that failed', () => {
    const r = editCopy('{"a":1}', { patch: [{ op: 'remove', path: '/b' }] }, '#3');
    expect(r).toEqual({
      ok: false,
      reason: expect.stringContaining('message #3: the patch does not apply (operation 0 (remove /b)'),
    });
  });
});

describe('header names', () => {
  it('refuses what AMQP or the broker forbids, naming --set-header', () => {
    expect(headerNameProblem('tenant')).toBeUndefined();
    expect(headerNameProblem('')).toMatch(/empty/);
    expect(headerNameProblem('x'.repeat(256))).toMatch(/255 bytes/);
    expect(headerNameProblem('x-death')).toMatch(/cannot be set/);
    expect(headerNameProblem('x-first-death-queue')).toMatch(/cannot be set/);
    expect(headerNameProblem('x-redrive-count')).toMatch(/cannot be set/);
    expect(parseSetHeader('a=b=c')).toEqual({ ok: true, name: 'a', value: 'b=c' });
    expect(parseSetHeader('novalue')).toMatchObject({ ok: false, message: expect.stringContaining('--set-header') });
    expect(parseSetHeader('x-death=1')).toMatchObject({ ok: false, message: expect.stringContaining('--set-header') });
  });
});
