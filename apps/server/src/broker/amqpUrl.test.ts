import { SECRET_FRAGMENTS, SECRET_URLS } from '../testing/secretUrls.js';
import { describe, expect, it } from 'vitest';
import {
  AmqpUrlError,
  DEFAULT_AMQP_URL,
  HostNotAllowedError,
  allowedHosts,
  assertHostAllowed,
  parseAmqpUrl,
  portMayBePassword,
  redactUrl,
  resolveBrokerUrl,
  toConnectOptions,
} from './amqpUrl.js';

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof AmqpUrlError) return err.field;
    throw err;
  }
  return undefined;
}

describe('parseAmqpUrl', () => {
  it('defaults to guest@127.0.0.1:5672 on vhost /', () => {
    const u = parseAmqpUrl();
    expect(u).toMatchObject({
      protocol: 'amqp',
      username: 'guest',
      password: 'guest',
      hostname: '127.0.0.1',
      port: 5672,
      vhost: '/',
    });
    expect(parseAmqpUrl('')).toEqual(parseAmqpUrl(DEFAULT_AMQP_URL));
  });

  it('decodes percent-encoded credentials and vhost', () => {
    const u = parseAmqpUrl('amqps://us%40er:p%40ss%231@Broker.example:5999/my%2Fvhost?heartbeat=10');
    expect(u).toMatchObject({
      protocol: 'amqps',
      username: 'us@er',
      password: 'p@ss#1',
      hostname: 'broker.example',
      port: 5999,
      vhost: 'my/vhost',
      heartbeat: 10,
    });
    expect(parseAmqpUrl('amqp://h/%2F').vhost).toBe('/');
    expect(parseAmqpUrl('amqps://h').port).toBe(5671);
    expect(parseAmqpUrl('amqp://[::1]:5673/').hostname).toBe('::1');
  });

  it('names the wrong part of bad URLs', () => {
    expect(fieldOf(() => parseAmqpUrl('http://localhost'))).toBe('protocol');
    expect(fieldOf(() => parseAmqpUrl('localhost:5672'))).toBe('url');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p@ss@host/'))).toBe('userinfo');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p#1@host/'))).toBe('userinfo');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p@host:99999/'))).toBe('port');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p@host:abc/'))).toBe('port');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p@/'))).toBe('host');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p@host/a/b'))).toBe('vhost');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p@host/?bogus=1'))).toBe('query');
    expect(fieldOf(() => parseAmqpUrl('amqp://u:p@host/%zz'))).toBe('vhost');
  });

  it('a password with an unencoded / ? # or @ is refused without a fragment of it in the error', () => {
    for (const url of SECRET_URLS) {
      let message = '';
      try {
        parseAmqpUrl(url);
      } catch (err) {
        message = (err as Error).message;
      }
      // a digits-only password in range parses as host:port: never shown (redactUrl below)
      if (message === '') expect(portMayBePassword(parseAmqpUrl(url)), url).toBe(true);
      for (const fragment of SECRET_FRAGMENTS) expect(message, url).not.toContain(fragment);
      expect(redactUrl(url)).not.toMatch(new RegExp(SECRET_FRAGMENTS.join('|')));
    }
  });

  it('a port that may be a password is hidden; a host with a port is shown as it is', () => {
    expect(redactUrl('amqp://user:24680/vhost')).toBe('amqp://guest:***@user:***/vhost');
    expect(redactUrl('amqp://localhost:5673/')).toBe('amqp://guest:***@localhost:5673/%2F');
    expect(redactUrl('amqp://rabbit.internal:5673/')).toBe('amqp://guest:***@rabbit.internal:5673/%2F');
    expect(redactUrl('amqp://u:p@rabbit:5673/')).toBe('amqp://u:***@rabbit:5673/%2F');
    expect(redactUrl('amqp://rabbit/')).toBe('amqp://guest:***@rabbit:5672/%2F');
  });

  it('says how to fix an unencoded @ and never echoes the password', () => {
    try {
      parseAmqpUrl('amqp://user:s3cr@t@host/');
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toContain('%40');
      expect((err as Error).message).not.toContain('s3cr');
    }
  });

  it('escapes the vhost for amqplib (which unescapes it)', () => {
    expect(toConnectOptions(parseAmqpUrl('amqp://h/a%2Fb')).vhost).toBe('a%2Fb');
  });
});

describe('redactUrl', () => {
  it('masks the password', () => {
    expect(redactUrl(parseAmqpUrl('amqp://alice:topsecret@127.0.0.1:5672/prod'))).toBe(
      'amqp://alice:***@127.0.0.1:5672/prod',
    );
    expect(redactUrl('amqp://alice:topsecret@localhost')).toBe('amqp://alice:***@localhost:5672/%2F');
    expect(redactUrl('not a url with topsecret')).not.toContain('topsecret');
  });
});

describe('host allow-list', () => {
  it('allows loopback only by default', () => {
    expect(() => assertHostAllowed(parseAmqpUrl('amqp://127.0.0.2/'), allowedHosts({}))).not.toThrow();
    expect(() => assertHostAllowed(parseAmqpUrl('amqp://[::1]/'), allowedHosts({}))).not.toThrow();
    expect(() => assertHostAllowed(parseAmqpUrl('amqp://localhost/'), allowedHosts({}))).not.toThrow();
    expect(() => assertHostAllowed(parseAmqpUrl('amqp://u:pw@evil.example/'), allowedHosts({}))).toThrow(
      HostNotAllowedError,
    );
    expect(() => resolveBrokerUrl('amqp://u:pw@10.0.0.5/', {})).toThrow(/not allowed.*RETRY_STUDIO_ALLOWED_HOSTS/);
  });

  it('allows hosts from RETRY_STUDIO_ALLOWED_HOSTS', () => {
    const env = { RETRY_STUDIO_ALLOWED_HOSTS: 'rabbit.internal, 10.0.0.5' };
    expect(resolveBrokerUrl('amqp://u:p@rabbit.internal/', env).hostname).toBe('rabbit.internal');
    expect(() => resolveBrokerUrl('amqp://u:p@other.internal/', env)).toThrow(HostNotAllowedError);
  });

  it('uses AMQP_URL when no URL is given', () => {
    expect(resolveBrokerUrl(undefined, { AMQP_URL: 'amqp://bob:x@localhost:5673/v' })).toMatchObject({
      username: 'bob',
      port: 5673,
      vhost: 'v',
    });
  });
});
