import { describe, expect, it } from 'vitest';
import { HostNotAllowedError, parseAmqpUrl } from './amqpUrl.js';
import { managementCandidates } from '@retry-studio/contract';
import { ManagementUrlError, parseManagementUrl } from './managementUrl.js';

describe('parseManagementUrl', () => {
  it('normalises to the API root', () => {
    expect(parseManagementUrl('http://127.0.0.1:15673/')).toBe('http://127.0.0.1:15673');
    expect(parseManagementUrl(' http://localhost:15673/api/ ')).toBe('http://localhost:15673');
    expect(parseManagementUrl('https://127.0.0.1/rabbitmq')).toBe('https://127.0.0.1/rabbitmq');
    expect(parseManagementUrl('http://[::1]:15672')).toBe('http://[::1]:15672');
  });

  it('refuses what is not a management URL, saying why', () => {
    expect(() => parseManagementUrl('127.0.0.1:15672')).toThrow(ManagementUrlError);
    expect(() => parseManagementUrl('nonsense')).toThrow(/must look like http:\/\/host:15672/);
    expect(() => parseManagementUrl('amqp://127.0.0.1:5672')).toThrow(/http:\/\/ or https:\/\/, not amqp:/);
    expect(() => parseManagementUrl('http://guest:guest@127.0.0.1:15672')).toThrow(/must not carry credentials/);
    expect(() => parseManagementUrl('http://127.0.0.1:15672/?x=1')).toThrow(/query or a fragment/);
  });

  it('applies the broker host allow-list (the server fetches it)', () => {
    expect(() => parseManagementUrl('http://10.1.2.3:15672', {})).toThrow(HostNotAllowedError);
    expect(parseManagementUrl('http://10.1.2.3:15672', { RETRY_STUDIO_ALLOWED_HOSTS: '10.1.2.3' })).toBe(
      'http://10.1.2.3:15672',
    );
  });
});

describe("managementCandidates (the contract's discovery order) of a parsed AMQP URL", () => {
  it('port 15672, then the AMQP port + 10000', () => {
    expect(managementCandidates(parseAmqpUrl('amqp://g:g@127.0.0.1:5673/'))).toEqual([
      'http://127.0.0.1:15672',
      'http://127.0.0.1:15673',
    ]);
    expect(managementCandidates(parseAmqpUrl('amqp://g:g@127.0.0.1:5672/'))).toEqual(['http://127.0.0.1:15672']);
    expect(managementCandidates(parseAmqpUrl('amqp://g:g@[::1]:5674/'))).toEqual([
      'http://[::1]:15672',
      'http://[::1]:15674',
    ]);
    expect(managementCandidates(parseAmqpUrl('amqp://g:g@127.0.0.1:60000/'))).toEqual(['http://127.0.0.1:15672']);
  });
});
