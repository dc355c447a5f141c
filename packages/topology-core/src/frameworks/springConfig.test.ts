/**
 * Spring's configuration as it runs: placeholders, the environment (relaxed binding, a
 * Deployment, a Helm values file, a dotenv), profile files, keys that do not exist (named with
 * their line), and Spring Cloud Stream's binding key and expires trap.
 */
import { describe, expect, it } from 'vitest';
import { importAppConfig } from '../appconfig/importApp.js';
import { appJourneys } from '../appconfig/journey.js';
import { lintDesign } from '../lint/lintDesign.js';
import { sourceSetting } from '../model/source.js';
import type { AppFile } from './types.js';

const f = (name: string, ...lines: string[]): AppFile => ({ name, text: lines.join('\n') + '\n' });
const boot = (...retry: string[]) =>
  f(
    'application.yml',
    'spring:',
    '  application:',
    '    name: billing',
    '  rabbitmq:',
    '    listener:',
    '      simple:',
    '        retry:',
    ...retry.map((r) => `          ${r}`),
  );
const listener = (files: AppFile[], opts: Parameters<typeof importAppConfig>[1] = {}) => {
  const app = importAppConfig(files, opts);
  return { app, s: app.design.sources!['consumer:billing-listener']!, j: appJourneys(app.design)[0]! };
};
const K = 'spring.rabbitmq.listener.simple.retry.';

describe('Spring configuration as it runs', () => {
  it('${...} resolves against other properties, the environment, then its default; each value says how', () => {
    const { s, j } = listener(
      [
        boot(
          'enabled: true',
          'max-attempts: ${app.tries}',
          'initial-interval: ${RETRY_FIRST:2s}',
          'multiplier: ${MULT:3}',
        ),
        f('app.properties', 'app.tries=${TRIES:4}'),
      ],
      { envFiles: [f('.env', 'MULT=2')] },
    );
    expect(j.attempts).toBe(4);
    expect(j.delaysMs).toEqual([2000, 4000, 8000]);
    expect(sourceSetting(s, `${K}multiplier`)?.via).toBe('${MULT:3}: MULT from .env:1');
    expect(sourceSetting(s, `${K}initial-interval`)?.via).toBe('${RETRY_FIRST:2s}: RETRY_FIRST unset: its default');
  });

  it('an environment variable overrides the file by relaxed binding (MAX_ATTEMPTS and MAXATTEMPTS), from a Deployment', () => {
    const deployment = f(
      'deployment.yaml',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: billing }',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: billing',
      '          env:',
      '            - name: SPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_MAX_ATTEMPTS',
      '              value: "6"',
      '            - name: SPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_INITIALINTERVAL',
      '              value: 500ms',
    );
    const { app, s, j } = listener([boot('enabled: true', 'max-attempts: 3'), deployment]);
    expect(j.attempts).toBe(6);
    expect(j.delaysMs[0]).toBe(500);
    expect(sourceSetting(s, `${K}max-attempts`)).toMatchObject({
      value: '6',
      file: 'deployment.yaml',
      line: 11,
      via: 'env SPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_MAX_ATTEMPTS',
    });
    expect(app.environment).toEqual(['deployment.yaml']);
  });

  it('a ConfigMap the Deployment names (valueFrom, envFrom), and a Helm values file', () => {
    const k8s = f(
      'k8s.yaml',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: { name: retry }',
      'data:',
      '  SPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_MAX_ATTEMPTS: "7"',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: billing }',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: billing',
      '          envFrom:',
      '            - configMapRef: { name: retry }',
    );
    expect(listener([boot('enabled: true'), k8s]).j.attempts).toBe(7);
    const helm = f(
      'values.yaml',
      'image: billing:1',
      'extraEnv:',
      '  - name: SPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_MAX_ATTEMPTS',
      '    value: "2"',
    );
    expect(listener([boot('enabled: true'), helm]).j.attempts).toBe(2);
  });

  it('profiles: application-prod.yml applies when prod is active (asked, or SPRING_PROFILES_ACTIVE), and is said inactive otherwise', () => {
    const prod = f('application-prod.yml', 'spring.rabbitmq.listener.simple.retry.max-attempts: 8');
    expect(listener([boot('enabled: true'), prod], { springProfiles: ['prod'] }).j.attempts).toBe(8);
    expect(
      listener([boot('enabled: true'), prod], { envFiles: [f('.env', 'SPRING_PROFILES_ACTIVE=prod')] }).j.attempts,
    ).toBe(8);
    const off = listener([boot('enabled: true'), prod]);
    expect(off.j.attempts).toBe(3);
    expect(off.app.notes.map((n) => `${n.file}: ${n.text}`)).toContain(
      'application-prod.yml: the file for profile "prod" is not active (activate it with --spring-profile)',
    );
  });

  it('a key Spring never reads is named with its line and the key meant (retry.max-attempt)', () => {
    const file = f(
      'application.properties',
      'spring.rabbitmq.listener.simple.retry.enabled=true',
      'spring.rabbitmq.listener.simple.retry.max-attempt=5',
    );
    const found = lintDesign(importAppConfig([file]).design).filter((x) => x.id === 'framework-key-ignored');
    expect(found).toHaveLength(1);
    expect(found[0]!.at).toEqual({ file: 'application.properties', line: 2 });
    expect(found[0]!.message).toContain('did you mean spring.rabbitmq.listener.simple.retry.max-attempts?');
    expect(found[0]!.fix).toMatch(/^Write spring\.rabbitmq\.listener\.simple\.retry\.max-attempts/);
  });

  it('a Spring Boot 1.x key under listener. is named as read until 2.0', () => {
    const file = f(
      'application.properties',
      'spring.rabbitmq.listener.retry.enabled=true',
      'spring.rabbitmq.listener.simple.prefetch=5',
    );
    const notes = importAppConfig([file]).notes.map((n) => n.text);
    expect(notes.join('\n')).toContain(
      'spring.rabbitmq.listener.retry.enabled is read by Spring Boot 1.4 until 2.0 only (from 2.0: simple.retry.enabled)',
    );
  });
});

describe('Spring Cloud Stream: what the binding routes, what its settings do', () => {
  const scs = (...rabbit: string[]) =>
    f(
      'application.yml',
      'spring:',
      '  cloud:',
      '    stream:',
      '      bindings:',
      '        orders-in-0:',
      '          destination: order-exchange',
      '          group: orders',
      '          consumer:',
      '            max-attempts: 5',
      '      rabbit:',
      '        bindings:',
      '          orders-in-0:',
      '            consumer:',
      ...rabbit.map((r) => `              ${r}`),
    );

  it('binding-routing-key one.*: the assumed publisher sends a key it routes, so the journey is shown', () => {
    const app = importAppConfig([scs('binding-routing-key: one.*', 'auto-bind-dlq: true')]);
    expect(app.design.publishers.find((p) => p.exchange === 'order-exchange')?.routingKey).toBe('one.x');
    const j = appJourneys(app.design)[0]!;
    expect(j.attempts).toBe(5);
    expect(j.delaysMs).toEqual([1000, 2000, 4000, 8000]);
    expect(j.endsIn).toEqual({ kind: 'queue', queue: 'order-exchange.orders.dlq' });
  });

  it('several keys with binding-routing-key-delimiter: a binding and a publisher each', () => {
    const app = importAppConfig([scs('binding-routing-key: "a.*,b.#"', 'binding-routing-key-delimiter: ","')]);
    expect(
      app.design.topology.bindings.filter((b) => b.destination === 'order-exchange.orders').map((b) => b.routing_key),
    ).toEqual(['a.*', 'b.#']);
    expect(
      app.design.publishers
        .filter((p) => p.exchange === 'order-exchange')
        .map((p) => p.routingKey)
        .sort(),
    ).toEqual(['a.x', 'b']);
  });

  it('expires: 10000 is a trap: the queue and its messages vanish 10 s after the last consumer goes', () => {
    const app = importAppConfig([scs('expires: 10000')]);
    expect(app.design.topology.queues.find((q) => q.name === 'order-exchange.orders')?.arguments?.['x-expires']).toBe(
      10000,
    );
    const trap = lintDesign(app.design).find((x) => x.id === 'framework-setting-trap');
    expect(trap?.at).toEqual({ file: 'application.yml', line: 14 });
    expect(trap?.message).toContain(
      'deletes order-exchange.orders, with every message in it, 10 s after its last consumer goes',
    );
  });

  it('a binder-neutral key under the RabbitMQ binder is named with where it belongs', () => {
    const note = importAppConfig([scs('max-attempt: 4')]).notes.find((n) => n.line === 14);
    expect(note?.text).toContain('did you mean spring.cloud.stream.bindings.orders-in-0.consumer.max-attempts?');
  });
});
