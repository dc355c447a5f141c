/**
 * @golevelup/nestjs-rabbitmq's handler options and queue options (MessageHandlerOptions and
 * QueueOptions in packages/rabbitmq/src/rabbitmq.interfaces.ts, compared across the releases
 * 2.0.0 ... 9.0.0): TypeScript refuses an unknown key in a typed literal, but a spread or an
 * untyped object passes it through and the library never reads it.
 */
import type { SourceNote } from '../../model/source.js';
import type { CodeText } from './codeText.js';
import { entry, type JsNode } from './jsLiteral.js';
import { suggestKey, type KeyTable } from './keyTable.js';

const HANDLER: readonly (readonly [string, string])[] = [
  ['exchange', '2.0'],
  ['routingKey', '2.0'],
  ['queue', '2.0'],
  ['queueOptions', '2.0'],
  ['errorBehavior', '2.0'],
  ['errorHandler', '2.0'],
  ['assertQueueErrorHandler', '2.0'],
  ['allowNonJsonMessages', '2.0'],
  ['createQueueIfNotExists', '2.0'],
  ['connection', '3.0'],
  ['name', '4.0'],
  ['usePersistentReplyTo', '5.0'],
  ['deserializer', '6.0'],
  ['batchOptions', '6.0'],
  ['bindings', '8.0'],
];
const QUEUE: readonly (readonly [string, string])[] = [
  ['durable', '2.0'],
  ['exclusive', '2.0'],
  ['autoDelete', '2.0'],
  ['arguments', '2.0'],
  ['messageTtl', '2.0'],
  ['expires', '2.0'],
  ['deadLetterExchange', '2.0'],
  ['deadLetterRoutingKey', '2.0'],
  ['maxLength', '2.0'],
  ['maxPriority', '2.0'],
  ['bindQueueArguments', '2.0'],
  ['channel', '2.0'],
  ['consumerOptions', '5.0'],
];

const table = (rows: readonly (readonly [string, string])[]): KeyTable => ({
  title: '@golevelup/nestjs-rabbitmq',
  cite: 'golevelup/nestjs packages/rabbitmq/src/rabbitmq.interfaces.ts, releases 2.0.0-9.0.0',
  entries: rows.map(([key, since]) => ({ key, since })),
});

export const NEST_HANDLER_KEYS: KeyTable = table([
  ...HANDLER,
  ...QUEUE.map(([k, v]) => [`queueOptions.${k}`, v] as const),
]);
const HANDLER_TABLE = table(HANDLER);
const QUEUE_TABLE = table(QUEUE);

export function nestKeyNotes(opts: JsNode, code: CodeText): SourceNote[] {
  const notes: SourceNote[] = [];
  const check = (n: JsNode | undefined, t: KeyTable, where: string): void => {
    if (n?.kind !== 'object') return;
    for (const e of n.entries) {
      if (t.entries.some((x) => x.key === e.key) || e.key.startsWith('[')) continue;
      const s = suggestKey(t, e.key);
      notes.push({
        kind: 'ignored-key',
        line: code.line(e.keyAt),
        key: `${where}${e.key}`,
        text: `${where}${e.key} is not an option of @golevelup/nestjs-rabbitmq: the library never reads it${s ? ` (did you mean ${where}${s}?)` : ''}`,
        fix: s ? `Write ${where}${s}.` : `Remove ${where}${e.key}.`,
      });
    }
  };
  check(opts, HANDLER_TABLE, '');
  check(entry(opts, 'queueOptions'), QUEUE_TABLE, 'queueOptions.');
  return notes;
}
