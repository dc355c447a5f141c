import { describe, expect, it } from 'vitest';
import { PROVABLE_FRAMEWORKS, runnerFor } from './frameworkRunners.js';
import { celeryBrokerUrl } from './celeryRunner.js';
import { parseAmqpUrl, withVhost } from '../broker/index.js';

describe('the frameworks prove-app runs', () => {
  it('every framework the brief names, Spring Boot in two versions', () => {
    expect([...PROVABLE_FRAMEWORKS].sort()).toEqual(
      ['celery', 'nestjs-rabbitmq', 'rascal', 'spring-amqp', 'spring-boot', 'spring-cloud-stream'].sort(),
    );
    expect(runnerFor('spring-boot', undefined).label).toBe('Spring Boot 3.5');
    expect(runnerFor('spring-boot', '4.0').label).toBe('Spring Boot 4.0');
  });

  it('names what it does not run, and a Spring Boot version it does not have', () => {
    expect(() => runnerFor('masstransit', undefined)).toThrow(/does not run masstransit/);
    expect(() => runnerFor('spring-boot', '2.7')).toThrow(/--spring-boot must be one of 3.5, 4.0/);
    expect(() => runnerFor('celery', '4.0')).toThrow(/applies to spring-boot configurations/);
  });

  it("Celery's broker URL carries the throwaway vhost, percent-encoded", () => {
    expect(celeryBrokerUrl(withVhost(parseAmqpUrl('amqp://u:p%40ss@127.0.0.1:5672'), 'rs-prove/x'))).toBe(
      'pyamqp://u:p%40ss@127.0.0.1:5672/rs-prove%2Fx',
    );
  });
});
