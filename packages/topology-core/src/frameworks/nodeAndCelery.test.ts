/**
 * Celery settings that do not exist, and the Node.js frameworks: Rascal's recovery chains and
 * NestJS's @RabbitSubscribe error behaviours, each from a realistic file.
 */
import { describe, expect, it } from 'vitest';
import { importAppConfig } from '../appconfig/importApp.js';
import { appJourneys } from '../appconfig/journey.js';
import { lintDesign } from '../lint/lintDesign.js';
import type { AppFile } from './types.js';

const f = (name: string, ...lines: string[]): AppFile => ({ name, text: lines.join('\n') + '\n' });

describe('Celery settings', () => {
  const celeryconfig = f(
    'celeryconfig.py',
    "broker_url = os.environ.get('BROKER_URL', 'amqp://localhost//')",
    'task_acks_late = True',
    'task_max_retries = 3',
    'task_default_retry_delay = 300',
    'task_ack_late = True',
  );

  it('task_max_retries and task_default_retry_delay are findings with their line, not "no listener found"', () => {
    const app = importAppConfig([celeryconfig]);
    const found = lintDesign(app.design).filter((x) => x.id === 'framework-key-ignored');
    expect(found.map((x) => x.at!.line)).toEqual([3, 4, 5]);
    expect(found[0]!.message).toContain('task_max_retries is not a Celery setting: max_retries is a task option');
    expect(found[0]!.fix).toContain("task_annotations = {'*': {'max_retries': 3}}");
    expect(found[2]!.message).toContain('did you mean task_acks_late?');
    // the stand-in task has no retry of its own: one attempt, then discarded
    const j = appJourneys(app.design)[0]!;
    expect([j.attempts, j.outcome.kind]).toEqual([1, 'discarded']);
  });

  it('task_annotations and the environment set a task option for every task', () => {
    const app = importAppConfig(
      [
        f(
          'tasks.py',
          'from celery import Celery',
          "app = Celery('t')",
          "app.conf.task_annotations = {'*': {'max_retries': 2, 'default_retry_delay': 30}}",
          "RETRIES = int(os.getenv('RETRIES', 5))",
          '@app.task(bind=True, autoretry_for=(Exception,), retry_kwargs={"max_retries": RETRIES})',
          'def sync(self): pass',
          '@app.task(bind=True, autoretry_for=(Exception,), queue="slow")',
          'def slow(self): pass',
        ),
      ],
      { envFiles: [f('.env', 'RETRIES=4')] },
    );
    const byId = Object.fromEntries(appJourneys(app.design).map((j) => [j.consumer, j]));
    expect(byId['sync']!.attempts).toBe(5);
    expect(byId['slow']!.attempts).toBe(3);
    expect(byId['slow']!.delaysMs).toEqual([30_000, 30_000]);
  });
});

describe('Rascal', () => {
  const config = (subscription: string[], recovery: string[]) =>
    f(
      'rascal.json',
      '{',
      '  "vhosts": {',
      '    "/": {',
      '      "exchanges": ["service", "delay", "retry", "dead_letters"],',
      '      "queues": {',
      '        "orders": { "options": { "arguments": { "x-dead-letter-exchange": "dead_letters" } } },',
      '        "delay:5s": { "options": { "messageTtl": 5000, "deadLetterExchange": "retry" } },',
      '        "dead_letters:orders": {}',
      '      },',
      '      "bindings": {',
      '        "service[order.created] -> orders": {},',
      '        "delay[delay.5s] -> delay:5s": {},',
      '        "retry[orders.#] -> orders": {},',
      '        "dead_letters -> dead_letters:orders": {}',
      '      },',
      '      "publications": { "retry_later": { "exchange": "delay", "options": { "CC": ["delay.5s"] } } },',
      `      "subscriptions": { "orders": { "queue": "orders"${subscription.join('')} } }`,
      '    }',
      '  },',
      `  "recovery": { ${recovery.join(', ')} }`,
      '}',
    );

  it('republish with attempts and defer, then nack: the copies come back after each defer, then the DLQ', () => {
    const app = importAppConfig([
      config([], ['"retry": [{ "strategy": "republish", "defer": 1000, "attempts": 3 }, { "strategy": "nack" }]']),
    ]);
    // what Rascal is handed to run it: the configuration as the file evaluates, and the strategies for ackOrNack
    expect(app.runnable?.orders).toMatchObject({
      vhost: '/',
      subscription: 'orders',
      recovery: [{ strategy: 'republish', defer: 1000, attempts: 3 }, { strategy: 'nack' }],
      config: { vhosts: { '/': { subscriptions: { orders: { queue: 'orders' } } } } },
    });
    const j = appJourneys(app.design).find((x) => x.consumer === 'orders')!;
    expect(j.attempts).toBe(4);
    expect(j.delaysMs).toEqual([1000, 1000, 1000]);
    expect(j.endsIn).toEqual({ kind: 'queue', queue: 'dead_letters:orders' });
  });

  it('forward through a TTL delay queue and back by the CC key Rascal adds', () => {
    const app = importAppConfig([
      config(
        [],
        [
          '"deferred": [{ "strategy": "forward", "publication": "retry_later", "attempts": 2 }, { "strategy": "nack" }]',
        ],
      ),
    ]);
    const j = appJourneys(app.design).find((x) => x.consumer === 'orders')!;
    expect(j.attempts).toBe(3);
    expect(j.delaysMs).toEqual([5000, 5000]);
    expect(j.endsIn).toEqual({ kind: 'queue', queue: 'dead_letters:orders' });
  });

  it('no recovery: ackOrNack(err) nacks without requeue; a nack with requeue loops, unless a counting redelivery limit stops it', () => {
    expect(appJourneys(importAppConfig([config([], [])]).design)[0]!.attempts).toBe(1);
    const loops = importAppConfig([config([], ['"r": [{ "strategy": "nack", "requeue": true }]'])]);
    expect(appJourneys(loops.design)[0]!.outcome.kind).toBe('moving');
    const stub = importAppConfig([
      config([', "redeliveries": { "limit": 5 }'], ['"r": [{ "strategy": "nack", "requeue": true }]']),
    ]);
    expect(appJourneys(stub.design)[0]!.outcome.kind).toBe('moving');
    const counted = importAppConfig([
      config(
        [', "redeliveries": { "limit": 5, "counter": "inMemory" }'],
        ['"r": [{ "strategy": "nack", "requeue": true }]'],
      ),
    ]);
    expect(appJourneys(counted.design)[0]!.attempts).toBe(6);
  });

  it("an attribute Rascal refuses is named with its line; the 'ack' strategy nacks (a trap)", () => {
    const app = importAppConfig([config([', "prefetchCount": 5'], ['"r": [{ "strategy": "ack" }]'])]);
    const findings = lintDesign(app.design);
    const key = findings.find((x) => x.id === 'framework-key-ignored');
    expect(key?.at?.line).toBe(17);
    expect(key?.message).toContain('did you mean prefetch?');
    expect(findings.some((x) => x.id === 'framework-setting-trap' && x.message.includes('nacks without requeue'))).toBe(
      true,
    );
    expect(appJourneys(app.design)[0]!.endsIn).toEqual({ kind: 'queue', queue: 'dead_letters:orders' });
  });
});

describe('NestJS (@golevelup/nestjs-rabbitmq)', () => {
  const handler = (options: string[], body = ['    await this.process(msg);']) =>
    f(
      'orders.consumer.ts',
      "import { RabbitSubscribe, MessageHandlerErrorBehavior, Nack } from '@golevelup/nestjs-rabbitmq';",
      '@Injectable()',
      'export class OrdersConsumer {',
      '  @RabbitSubscribe({',
      "    exchange: 'orders',",
      "    routingKey: 'order.*',",
      "    queue: 'orders.created',",
      ...options.map((o) => `    ${o}`),
      '  })',
      '  async onOrder(msg: unknown) {',
      ...body,
      '  }',
      '}',
    );
  const module = f(
    'app.module.ts',
    "import { RabbitMQModule, MessageHandlerErrorBehavior } from '@golevelup/nestjs-rabbitmq';",
    '@Module({ imports: [RabbitMQModule.forRoot({',
    "  exchanges: [{ name: 'orders', type: 'topic' }, { name: 'orders.dlx', type: 'fanout' }],",
    "  queues: [{ name: 'orders.dead', exchange: 'orders.dlx', routingKey: '' }],",
    '  prefetchCount: 5,',
    '  defaultSubscribeErrorBehavior: MessageHandlerErrorBehavior.NACK,',
    '})] })',
    'export class AppModule {}',
  );

  it('the library default REQUEUE redelivers a failing message for ever (golevelup #138)', () => {
    const app = importAppConfig([handler([])]);
    expect(appJourneys(app.design)[0]!.outcome.kind).toBe('moving');
    expect(lintDesign(app.design).some((x) => x.id === 'requeue-rejected-forever')).toBe(true);
  });

  it("the module's defaultSubscribeErrorBehavior from another file, with its DLX: dead-lettered", () => {
    const app = importAppConfig([handler(["queueOptions: { deadLetterExchange: 'orders.dlx' },"]), module]);
    const j = appJourneys(app.design)[0]!;
    expect(j.endsIn).toEqual({ kind: 'queue', queue: 'orders.dead' });
    expect(app.design.consumers[0]!.prefetch).toBe(5);
  });

  it('a catch that returns new Nack(false) decides; a catch that swallows the error acks: discarded', () => {
    const nack = handler(
      ['errorBehavior: MessageHandlerErrorBehavior.REQUEUE,'],
      ['    try { await this.process(msg); } catch (e) { return new Nack(false); }'],
    );
    expect(appJourneys(importAppConfig([nack]).design)[0]!.outcome.kind).toBe('dropped');
    const swallow = handler([], ['    try { await this.process(msg); } catch (e) { this.logger.error(e); }']);
    const app = importAppConfig([swallow]);
    expect(appJourneys(app.design)[0]!.outcome.kind).toBe('discarded');
    expect(lintDesign(app.design).some((x) => x.id === 'app-discards-failures')).toBe(true);
  });

  it("@RabbitRPC: the module's defaultRpcErrorHandler (REQUEUE) decides, never errorBehavior (4.1.0 and later)", () => {
    const rpc = (moduleLines: string[]) =>
      f(
        'orders.rpc.ts',
        "import { RabbitRPC, RabbitMQModule, MessageHandlerErrorBehavior, ackErrorHandler } from '@golevelup/nestjs-rabbitmq';",
        `RabbitMQModule.forRoot({ exchanges: [{ name: 'rpc', type: 'topic' }]${moduleLines.join('')} });`,
        'export class Rpc {',
        "  @RabbitRPC({ exchange: 'rpc', routingKey: 'rpc.orders', queue: 'rpc.orders',",
        '    errorBehavior: MessageHandlerErrorBehavior.ACK })',
        '  async onRpc(msg: unknown) { return this.answer(msg); }',
        '}',
      );
    const app = importAppConfig([rpc([])]);
    expect(appJourneys(app.design)[0]!.outcome.kind).toBe('moving');
    const ignored = lintDesign(app.design).find((x) => x.id === 'framework-key-ignored');
    expect(ignored?.at?.line).toBe(5);
    expect(ignored?.message).toContain('errorBehavior on an @RabbitRPC handler is not used');
    // the module names the library's ack handler for RPC failures: acked and gone
    const acked = importAppConfig([rpc([', defaultRpcErrorHandler: ackErrorHandler'])]);
    expect(appJourneys(acked.design)[0]!.outcome.kind).toBe('discarded');
    expect(acked.runnable?.onRpc).toMatchObject({ decorator: 'RabbitRPC', rpcErrorHandler: 'ackErrorHandler' });
  });

  it('what the library is handed to run a handler, as the file evaluates: options, behaviour by name, the body', () => {
    const app = importAppConfig([
      handler(
        ["queueOptions: { deadLetterExchange: 'orders.dlx', arguments: { 'x-queue-type': 'quorum' } },"],
        ['    try { await this.process(msg); } catch (e) { return new Nack(true); }'],
      ),
      module,
    ]);
    expect(app.runnable?.onOrder).toEqual({
      decorator: 'RabbitSubscribe',
      subscribe: {
        exchange: 'orders',
        routingKey: 'order.*',
        queue: 'orders.created',
        queueOptions: { deadLetterExchange: 'orders.dlx', arguments: { 'x-queue-type': 'quorum' } },
      },
      module: {
        exchanges: [
          { name: 'orders', type: 'topic' },
          { name: 'orders.dlx', type: 'fanout' },
        ],
        queues: [{ name: 'orders.dead', exchange: 'orders.dlx', routingKey: '' }],
        prefetchCount: 5,
        defaultSubscribeErrorBehavior: 'NACK',
      },
      onFailure: 'nack-requeue',
    });
  });

  it("an application's own errorHandler is not read: the failure path is a guess, marked as such", () => {
    const app = importAppConfig([handler(['errorHandler: replyErrorCallback,'])]);
    const notes = app.design.sources!['consumer:onOrder']!.notes!;
    expect(notes.find((n) => n.failurePathUnread)?.text).toMatch(/a handler of the application's own/);
  });

  it('an option the library does not have is named with its line', () => {
    const app = importAppConfig([handler(['errorBehaviour: MessageHandlerErrorBehavior.NACK,'])]);
    const key = lintDesign(app.design).find((x) => x.id === 'framework-key-ignored');
    expect(key?.at?.line).toBe(8);
    expect(key?.message).toContain('did you mean errorBehavior?');
  });
});
