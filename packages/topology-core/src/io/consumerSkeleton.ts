/**
 * Design -> an amqplib TypeScript consumer skeleton: one consumer per ConsumerSpec, its
 * declarative rules turned into plain code (counters, conditions, ack / reject / requeue /
 * republish-then-ack / in-process retry). `handle()` is where the user's work goes.
 */
import { AMQP_CLIENT_MODULE, generatedImport } from './generatedCode.js';
import type { Condition, ConsumerAction, ConsumerSpec, Counter, ValueExpr } from '../model/consumer.js';
import type { AmqpValue } from '../model/definitions.js';
import type { Design } from '../model/design.js';

const js = (v: unknown): string => JSON.stringify(v);

function counter(c: Counter): string {
  switch (c.kind) {
    case 'attempt':
      return 'attempt';
    case 'header':
      return `num(headers[${js(c.name)}])`;
    case 'deathCount':
      return `deathCount(msg, ${js(c.queue ?? null)}, ${js(c.reason ?? null)})`;
    case 'deliveryCount':
      return `num(headers['x-delivery-count'])`;
    case 'held':
      return '(held.length + 1)';
  }
}

function value(v: ValueExpr | AmqpValue): string {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || !('kind' in v) || typeof v.kind !== 'string')
    return js(v);
  const e = v as ValueExpr & object;
  switch (e.kind) {
    case 'curve':
      return `curve(${js(e.values)}, ${counter(e.by)})`;
    case 'exponential':
      return `Math.min(${e.maxMs}, ${e.initialMs} * ${e.multiplier} ** (Math.max(1, ${counter(e.by)}) - 1))`;
    case 'counter':
      return `${counter(e.by)} + ${e.add ?? 0}`;
    case 'fromHeader':
      return `str(headers[${js(e.name)}])`;
    default:
      return js(v);
  }
}

function condition(c: Condition): string {
  switch (c.kind) {
    case 'lt':
      return `${counter(c.counter)} < ${c.value}`;
    case 'gte':
      return `${counter(c.counter)} >= ${c.value}`;
    case 'redelivered':
      return `msg.fields.redelivered === ${c.is}`;
    case 'hasHeader':
      return `${c.is ? '' : '!'}(${js(c.name)} in headers)`;
  }
}

function action(a: ConsumerAction, indent: string, queue: string): string[] {
  switch (a.kind) {
    case 'ack':
      return a.multiple
        ? [
            `${indent}ch.ack(msg, true); // and every earlier unacked delivery on this channel`,
            `${indent}held.length = 0;`,
          ]
        : [`${indent}ch.ack(msg);`];
    case 'defer':
      return [`${indent}await sleep(${a.ms}); // held unacked meanwhile`, ...action(a.then, indent, queue)];
    case 'discard':
      return [
        `${indent}ch.ack(msg); // gives up: the broker forgets it and the message is lost (log or keep it first)`,
      ];
    case 'reject':
      return a.multiple
        ? [
            `${indent}ch.nack(msg, true, false); // this and every earlier unacked delivery; dead-letters if ${queue} has a DLX`,
            `${indent}held.length = 0;`,
          ]
        : [`${indent}ch.reject(msg, false); // dead-letters if ${queue} has a DLX`];
    case 'requeue':
      if (a.multiple)
        return [
          `${indent}ch.nack(msg, true, true); // this and every earlier unacked delivery`,
          `${indent}held.length = 0;`,
        ];
      return [a.via === 'reject' ? `${indent}ch.reject(msg, true);` : `${indent}ch.nack(msg, false, true);`];
    case 'hold':
      return [`${indent}held.push(msg); // left unacked: a later multiple settles it`];
    case 'republish': {
      const headers = Object.entries(a.headers ?? {}).map(([k, v]) => `${js(k)}: ${value(v as ValueExpr)}`);
      const rk =
        a.routingKey !== undefined
          ? js(a.routingKey)
          : a.routingKeyFromHeader !== undefined
            ? `str(headers[${js(a.routingKeyFromHeader)}])`
            : 'msg.fields.routingKey';
      const base = a.copyHeaders === false ? '{}' : 'headers';
      const exc = a.exceptionHeaders
        ? `, 'x-exception-message': String(err), 'x-exception-stacktrace': err instanceof Error ? (err.stack ?? '').slice(0, 4000) : '', 'x-original-exchange': msg.fields.exchange, 'x-original-routingKey': msg.fields.routingKey`
        : '';
      return [
        `${indent}// publish a copy, wait for the broker's confirm, then ack the original (a crash in between duplicates it)`,
        `${indent}await republish(${js(a.exchange)}, ${rk}, msg, { ...${base}${headers.length ? ', ' + headers.join(', ') : ''}${exc} }${a.expiration !== undefined ? `, String(${value(a.expiration)})` : ''});`,
        `${indent}ch.ack(msg);`,
      ];
    }
    case 'retryInProcess':
      return [
        `${indent}// stateless in-process retry: the delivery stays unacked meanwhile`,
        `${indent}for (let i = 1; i < ${a.maxAttempts}; i++) {`,
        `${indent}  await sleep(Math.min(${a.backoff.maxMs}, ${a.backoff.initialMs} * ${a.backoff.multiplier} ** (i - 1)));`,
        `${indent}  try {`,
        `${indent}    await handle(msg);`,
        `${indent}    ch.ack(msg);`,
        `${indent}    return;`,
        `${indent}  } catch (e) {`,
        `${indent}    err = e;`,
        `${indent}  }`,
        `${indent}}`,
        ...action(a.recover, indent, queue),
      ];
  }
}

function rulesCode(
  rules: readonly { readonly when?: Condition; readonly then: ConsumerAction }[],
  indent: string,
  queue: string,
): string[] {
  const out: string[] = [];
  for (const r of rules) {
    if (r.when) {
      out.push(
        `${indent}if (${condition(r.when)}) {`,
        ...action(r.then, indent + '  ', queue),
        `${indent}  return;`,
        `${indent}}`,
      );
    } else {
      out.push(...action(r.then, indent, queue), `${indent}return;`);
      return out;
    }
  }
  out.push(`${indent}// no rule matched: leave it unacked (as the design says)`);
  return out;
}

function consumerCode(c: ConsumerSpec): string[] {
  const b = c.behaviour;
  const L = [
    `  // ${c.label ?? c.id}: ${b.kind} on ${c.queue}`,
    `  await ch.prefetch(${c.prefetch ?? 1});`,
    `  await ch.consume(${js(c.queue)}, async (msg) => {`,
    '    if (!msg) return; // cancelled by the broker',
  ];
  L.push('    const headers: Record<string, unknown> = { ...(msg.properties.headers ?? {}) };');
  L.push('    const attempt = countAttempt(' + js(c.id) + ', msg);');
  L.push('    let err: unknown;');
  L.push('    void held;');
  if (b.kind === 'worker') {
    L.push('    try {', '      await handle(msg);');
    L.push(
      ...action(b.onSuccess ?? { kind: 'ack' }, '      ', c.queue).map((l) => l),
      '      forget(' + js(c.id) + ', msg);',
      '      return;',
      '    } catch (e) {',
      '      err = e;',
      '    }',
    );
    L.push(...rulesCode(b.onFailure, '    ', c.queue));
  } else if (b.kind === 'router') L.push(...rulesCode(b.rules, '    ', c.queue));
  else {
    L.push(
      `    const script = [${b.actions.map((a) => js(a.kind)).join(', ')}]; // the i-th delivery of a body gets the i-th action`,
    );
    L.push(...rulesCode([{ then: b.actions[b.actions.length - 1]! }], '    ', c.queue));
  }
  // a stream reader starts at its offset (x-stream-offset); the broker's default is next
  L.push(c.streamOffset !== undefined ? `  }, { arguments: { 'x-stream-offset': ${js(c.streamOffset)} } });` : '  });');
  return L;
}

export function exportConsumerSkeleton(d: Design): string {
  const L: string[] = [];
  L.push(
    `// Consumer skeleton generated by Retry Studio from ${js(d.name)}${d.origin ? ` (template ${d.origin.template})` : ''}.`,
  );
  L.push('// Put your work in handle(); throw to signal a failure. Run: AMQP_URL=... npx tsx consumers.ts');
  L.push(generatedImport('amqplib, { type ConsumeMessage }', AMQP_CLIENT_MODULE));
  L.push('');
  L.push(`const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/';`);
  L.push('');
  L.push('async function handle(msg: ConsumeMessage): Promise<void> {');
  L.push(`  // TODO: your work here; throw to fail`);
  L.push('  void msg;');
  L.push('}');
  L.push('');
  L.push('const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));');
  L.push('const num = (v: unknown): number => (typeof v === "number" ? v : Number(v ?? 0) || 0);');
  L.push('const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));');
  L.push(
    'const curve = (values: number[], n: number): number => values[Math.max(1, Math.min(n, values.length)) - 1]!;',
  );
  L.push('/** count of the x-death entries matching queue/reason (null: any) */');
  L.push('function deathCount(msg: ConsumeMessage, queue: string | null, reason: string | null): number {');
  L.push(
    "  const deaths = (msg.properties.headers?.['x-death'] ?? []) as { queue: string; reason: string; count: number }[];",
  );
  L.push(
    '  return deaths.filter((d) => (queue === null || d.queue === queue) && (reason === null || d.reason === reason)).reduce((n, d) => n + Number(d.count), 0);',
  );
  L.push('}');
  L.push('/** attempts per consumer and message, in this process only (a restart resets them) */');
  L.push('const attempts = new Map<string, number>();');
  L.push(
    'const keyOf = (id: string, msg: ConsumeMessage) => `${id}:${msg.properties.messageId ?? msg.content.toString("base64").slice(0, 64)}`;',
  );
  L.push('function countAttempt(id: string, msg: ConsumeMessage): number {');
  L.push('  const n = (attempts.get(keyOf(id, msg)) ?? 0) + 1;');
  L.push('  attempts.set(keyOf(id, msg), n);');
  L.push('  return n;');
  L.push('}');
  L.push('const forget = (id: string, msg: ConsumeMessage) => attempts.delete(keyOf(id, msg));');
  L.push('');
  L.push('async function main(): Promise<void> {');
  L.push('  const conn = await amqplib.connect(url);');
  L.push('  const pub = await conn.createConfirmChannel();');
  L.push(
    '  const republish = (exchange: string, routingKey: string, msg: ConsumeMessage, headers: Record<string, unknown>, expiration?: string) =>',
  );
  L.push('    new Promise<void>((resolve, reject) => {');
  L.push('      // copied headers include x-death: RabbitMQ 3.x keeps counting from it, 4.x ignores it');
  L.push('      const { expiration: _old, ...props } = msg.properties; void _old;');
  L.push(
    '      pub.publish(exchange, routingKey, msg.content, { ...props, headers, ...(expiration !== undefined ? { expiration } : {}) }, (e: unknown) => (e ? reject(e) : resolve()));',
  );
  L.push('    });');
  for (const c of d.consumers) {
    L.push('  {');
    L.push('    const ch = await conn.createChannel();');
    L.push('    /** deliveries held unacked (hold), settled together by a multiple */');
    L.push('    const held: ConsumeMessage[] = [];');
    L.push(...consumerCode(c).map((l) => '  ' + l));
    L.push('  }');
  }
  L.push(`  console.log(${js(`consuming with ${d.consumers.length} consumer(s)`)});`);
  L.push('}');
  L.push('');
  L.push('main().catch((e: unknown) => {');
  L.push('  console.error(e instanceof Error ? e.message : String(e));');
  L.push('  process.exitCode = 1;');
  L.push('});');
  return L.join('\n') + '\n';
}
