/**
 * The attributes Rascal accepts, per kind of object (onebeyond/rascal lib/config/validate.js,
 * compared across the tags v10.0.0 ... v21.0.0): Rascal refuses to start on any other
 * ("refers to an unsupported attribute"). `since`: the first compared tag that accepts it.
 */
import type { SourceNote } from '../../model/source.js';
import type { CodeText } from './codeText.js';
import { entry, type JsNode, type JsValues } from './jsLiteral.js';
import type { KeyTable } from './keyTable.js';
import { suggestKey } from './keyTable.js';

const SCOPES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  vhost: [
    ['defaults', '10.0'],
    ['namespace', '10.0'],
    ['name', '10.0'],
    ['concurrency', '10.0'],
    ['publicationChannelPools', '10.0'],
    ['connection', '10.0'],
    ['connections', '10.0'],
    ['connectionStrategy', '10.0'],
    ['exchanges', '10.0'],
    ['queues', '10.0'],
    ['bindings', '10.0'],
    ['check', '10.0'],
    ['assert', '10.0'],
    ['subscriptions', '10.0'],
    ['publications', '10.0'],
  ],
  exchange: [
    ['fullyQualifiedName', '10.0'],
    ['name', '10.0'],
    ['assert', '10.0'],
    ['check', '10.0'],
    ['type', '10.0'],
    ['options', '10.0'],
  ],
  queue: [
    ['fullyQualifiedName', '10.0'],
    ['name', '10.0'],
    ['assert', '10.0'],
    ['check', '10.0'],
    ['type', '10.0'],
    ['purge', '10.0'],
    ['replyTo', '10.0'],
    ['options', '10.0'],
  ],
  binding: [
    ['fullyQualifiedName', '10.0'],
    ['name', '10.0'],
    ['source', '10.0'],
    ['destination', '10.0'],
    ['destinationType', '10.0'],
    ['bindingKey', '10.0'],
    ['bindingKeys', '10.0'],
    ['qualifyBindingKeys', '10.0'],
    ['options', '10.0'],
  ],
  subscription: [
    ['name', '10.0'],
    ['vhost', '10.0'],
    ['queue', '10.0'],
    ['contentType', '10.0'],
    ['options', '10.0'],
    ['prefetch', '10.0'],
    ['channelPrefetch', '17.0'],
    ['retry', '10.0'],
    ['source', '10.0'],
    ['recovery', '10.0'],
    ['workflow', '10.0'],
    ['handler', '10.0'],
    ['workflows', '10.0'],
    ['handlers', '10.0'],
    ['redeliveries', '10.0'],
    ['autoCreated', '10.0'],
    ['deprecated', '10.0'],
    ['closeTimeout', '14.0'],
    ['encryption', '10.0'],
    ['promisifyAckOrNack', '10.0'],
  ],
  publication: [
    ['name', '10.0'],
    ['vhost', '10.0'],
    ['exchange', '10.0'],
    ['queue', '10.0'],
    ['routingKey', '10.0'],
    ['confirm', '10.0'],
    ['options', '10.0'],
    ['destination', '10.0'],
    ['autoCreated', '10.0'],
    ['deprecated', '10.0'],
    ['encryption', '10.0'],
    ['replyTo', '10.0'],
    ['timeout', '10.0'],
  ],
};

export const RASCAL_KEYS: KeyTable = {
  title: 'Rascal',
  cite: 'onebeyond/rascal lib/config/validate.js, tags v10.0.0-v21.0.0',
  entries: Object.entries(SCOPES).flatMap(([scope, keys]) =>
    keys.map(([k, since]) => ({ key: `${scope}.${k}`, since })),
  ),
};

const table = (scope: string): KeyTable => ({
  ...RASCAL_KEYS,
  entries: (SCOPES[scope] ?? []).map(([key, since]) => ({ key, since })),
});

/** Notes for attributes Rascal does not accept, in each vhost's objects and the subscriptions and publications. */
export function rascalKeyNotes(
  root: JsNode,
  vhosts: readonly { name: string; node: JsNode }[],
  values: JsValues,
  code: CodeText,
): SourceNote[] {
  const notes: SourceNote[] = [];
  const check = (scope: string, where: string, n: JsNode | undefined): void => {
    const v = values.node(n);
    if (v?.kind !== 'object') return;
    const t = table(scope);
    for (const e of v.entries) {
      if (t.entries.some((x) => x.key === e.key)) continue;
      const s = suggestKey(t, e.key);
      notes.push({
        kind: 'ignored-key',
        line: code.line(e.keyAt),
        key: `${where}.${e.key}`,
        text: `${where}.${e.key}: Rascal does not accept "${e.key}" on a ${scope} and refuses to start ("refers to an unsupported attribute")${s ? ` (did you mean ${s}?)` : ''}`,
        fix: s ? `Write ${s}.` : `Remove ${e.key}; a ${scope} accepts ${t.entries.map((x) => x.key).join(', ')}.`,
      });
    }
  };
  const each = (scope: string, where: string, n: JsNode | undefined): void => {
    const v = values.node(n);
    if (v?.kind === 'object') for (const e of v.entries) check(scope, `${where}.${e.key}`, e.value);
    if (v?.kind === 'array') v.items.forEach((i, k) => check(scope, `${where}[${k}]`, i));
  };
  for (const vh of vhosts) {
    check('vhost', `vhosts.${vh.name}`, vh.node);
    each('exchange', `vhosts.${vh.name}.exchanges`, entry(vh.node, 'exchanges'));
    each('queue', `vhosts.${vh.name}.queues`, entry(vh.node, 'queues'));
    each('binding', `vhosts.${vh.name}.bindings`, entry(vh.node, 'bindings'));
    each('subscription', `vhosts.${vh.name}.subscriptions`, entry(vh.node, 'subscriptions'));
    each('publication', `vhosts.${vh.name}.publications`, entry(vh.node, 'publications'));
  }
  each('subscription', 'subscriptions', entry(root, 'subscriptions'));
  each('publication', 'publications', entry(root, 'publications'));
  return notes;
}
