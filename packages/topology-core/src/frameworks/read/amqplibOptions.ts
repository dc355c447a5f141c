/**
 * amqplib's assertQueue options as the queue arguments they set (amqplib lib/args.js
 * assertQueue): what Rascal's `queues.<q>.options` and NestJS's `queueOptions` pass through.
 * `arguments` is merged as written; durable / autoDelete / exclusive shape the queue itself.
 */
import type { AmqpTable, AmqpValue } from '../../model/definitions.js';
import { entry, type JsNode, type JsValues } from './jsLiteral.js';

/** option -> the x-argument it becomes */
const AS_ARGUMENT: Readonly<Record<string, string>> = {
  messageTtl: 'x-message-ttl',
  expires: 'x-expires',
  deadLetterExchange: 'x-dead-letter-exchange',
  deadLetterRoutingKey: 'x-dead-letter-routing-key',
  maxLength: 'x-max-length',
  maxPriority: 'x-max-priority',
  overflow: 'x-overflow',
  queueMode: 'x-queue-mode',
};

export interface QueueShape {
  readonly arguments: AmqpTable;
  readonly durable: boolean;
  readonly autoDelete: boolean;
  /** options that were expressions this could not resolve */
  readonly unresolved: readonly string[];
}

export function queueShape(options: JsNode | undefined, values: JsValues): QueueShape {
  const args: Record<string, AmqpValue> = {};
  const unresolved: string[] = [];
  const put = (key: string, n: JsNode | undefined): void => {
    const v = values.scalar(n);
    if (v === undefined) unresolved.push(key);
    else args[key] = v;
  };
  const o = values.node(options);
  if (o?.kind === 'object')
    for (const e of o.entries) {
      if (AS_ARGUMENT[e.key]) put(AS_ARGUMENT[e.key]!, e.value);
      else if (e.key === 'arguments') {
        const a = values.node(e.value);
        if (a?.kind === 'object') for (const x of a.entries) put(x.key, x.value);
        else unresolved.push('arguments');
      }
    }
  const flag = (k: string, d: boolean): boolean => {
    const v = values.scalar(entry(o, k));
    return typeof v === 'boolean' ? v : d;
  };
  return { arguments: args, durable: flag('durable', true), autoDelete: flag('autoDelete', false), unresolved };
}
