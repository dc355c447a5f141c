import { describe, expect, it } from 'vitest';
import { PROVABLE_FRAMEWORKS, runnerFor, unreadFramework } from './frameworkRunners.js';
import { rascalSubscriptions } from './rascalRunner.js';
import { celeryBrokerUrl } from './celeryRunner.js';
import { parseAmqpUrl, withVhost } from '../broker/index.js';

const file = (name: string, text: string) => ({ name, path: `/tmp/${name}`, text });
const rascal = JSON.stringify({
  vhosts: { '/': { queues: ['orders.q'], subscriptions: { orders: { queue: 'orders.q' } } } },
});

describe('the frameworks prove-app runs', () => {
  it('every framework the brief names, Spring Boot in two versions', () => {
    expect([...PROVABLE_FRAMEWORKS].sort()).toEqual(
      ['celery', 'nestjs', 'rascal', 'spring-amqp', 'spring-boot', 'spring-cloud-stream'].sort(),
    );
    expect(runnerFor('spring-boot', undefined).label).toBe('Spring Boot 3.5');
    expect(runnerFor('spring-boot', '4.0').label).toBe('Spring Boot 4.0');
  });

  it('names what it does not run, and a Spring Boot version it does not have', () => {
    expect(() => runnerFor('masstransit', undefined)).toThrow(/does not run masstransit/);
    expect(() => runnerFor('spring-boot', '2.7')).toThrow(/--spring-boot must be one of 3.5, 4.0/);
    expect(() => runnerFor('celery', '4.0')).toThrow(/applies to spring-boot configurations/);
  });

  it('recognises the files import-app does not read: a Rascal JSON, a NestJS module', () => {
    expect(unreadFramework([file('rascal.json', rascal)], undefined)).toBe('rascal');
    expect(unreadFramework([file('app.module.ts', "RabbitMQModule.forRoot({ uri: '' })")], undefined)).toBe('nestjs');
    expect(unreadFramework([file('definitions.json', '{"queues": []}')], undefined)).toBeUndefined();
    expect(unreadFramework([file('x.py', 'x = 1')], undefined)).toBeUndefined();
  });

  it("a Rascal configuration's subscriptions, each with its vhost and queue", () => {
    expect(rascalSubscriptions(JSON.parse(rascal))).toEqual([{ vhost: '/', name: 'orders', queue: 'orders.q' }]);
  });

  it("Celery's broker URL carries the throwaway vhost, percent-encoded", () => {
    expect(celeryBrokerUrl(withVhost(parseAmqpUrl('amqp://u:p%40ss@127.0.0.1:5672'), 'rs-prove/x'))).toBe(
      'pyamqp://u:p%40ss@127.0.0.1:5672/rs-prove%2Fx',
    );
  });
});
