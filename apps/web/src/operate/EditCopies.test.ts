import { describe, expect, it } from 'vitest';
import { checkEdit } from './EditCopies';

describe('checkEdit', () => {
  it('a group: the patch checked as RFC 6902, the bad field named', () => {
    expect(checkEdit({ text: '[{"op":"replace","path":"/a","value":1}]', headers: '' })).toEqual({
      problems: [],
      patch: [{ op: 'replace', path: '/a', value: 1 }],
    });
    expect(checkEdit({ text: '[{"op":"frob","path":"/a"}]', headers: '' }).problems).toEqual([
      expect.stringMatching(/^patch\[0\]\.op: op must be one of/),
    ]);
    expect(checkEdit({ text: '[{', headers: '' }).problems).toEqual([expect.stringMatching(/^patch: not JSON/)]);
  });
  it('one message: the edited body becomes a patch replacing the whole body', () => {
    expect(checkEdit({ text: '{"a": 2}', headers: '', single: { label: 'm1', filter: 'message-id=m1' } })).toEqual({
      problems: [],
      patch: [{ op: 'replace', path: '', value: { a: 2 } }],
    });
    expect(
      checkEdit({ text: '{"a": ', headers: '', single: { label: 'm1', filter: 'message-id=m1' } }).problems,
    ).toEqual([expect.stringMatching(/^body: not JSON/)]);
  });
  it('headers: NAME=VALUE lines, forbidden names refused by line', () => {
    expect(checkEdit({ text: '', headers: 'x-fixed=yes\n\ntenant=a=b' })).toEqual({
      problems: [],
      setHeaders: { 'x-fixed': 'yes', tenant: 'a=b' },
    });
    expect(checkEdit({ text: '', headers: 'ok=1\nx-death=2' }).problems).toEqual([
      expect.stringMatching(/^header line 2: --set-header: header 'x-death'/),
    ]);
  });
});
