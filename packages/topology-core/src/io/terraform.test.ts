import { describe, expect, it } from 'vitest';
import { templateDesign as design } from '../../testing/templateDesign.js';
import { exportTerraform } from './terraform.js';
import { hclString } from './hclText.js';

describe('terraform', () => {
  it('escapes HCL template markers in literal strings', () => {
    expect(hclString('a${b}%{c}"d')).toBe('"a$${b}%%{c}\\"d"');
  });

  it('queues with typed arguments use arguments_json = jsonencode, referring to the dead-letter exchange resource', () => {
    const tf = exportTerraform(design('quorum-delivery-limit'));
    expect(tf).toContain(
      [
        'resource "rabbitmq_queue" "jobs_q" {',
        '  name = "jobs.q"',
        '  vhost = "/"',
        '  settings {',
        '    durable = true',
        '    auto_delete = false',
        '    arguments_json = jsonencode({',
        '      "x-queue-type" = "quorum"',
        '      "x-delivery-limit" = 3',
        '      "x-dead-letter-exchange" = rabbitmq_exchange.jobs_dlx.name',
        '    })',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(tf).not.toContain('rabbitmq_vhost');
  });

  it('bindings refer to their source and destination resources; a vhost option gets its own resource', () => {
    const tf = exportTerraform(design('binary-delay-levels'), { vhost: 'retry' });
    expect(tf).toContain('resource "rabbitmq_vhost" "vhost" {\n  name = "retry"\n}');
    expect(tf).toMatch(
      /source = rabbitmq_exchange\.orders_delay_01\.name\n {2}vhost = rabbitmq_vhost\.vhost\.name\n {2}destination = rabbitmq_exchange\.orders_delay_00\.name\n {2}destination_type = "exchange"/,
    );
  });

  it('policies: integers as strings (the provider converts them back), other typed values dropped with a comment', () => {
    const d = design('requeue-once');
    const tf = exportTerraform({
      ...d,
      topology: {
        ...d.topology,
        policies: [
          {
            name: 'p',
            pattern: '.*',
            definition: { 'max-length': 5, 'queue-mode': 'lazy', 'ha-sync-batch-size': 1.5, flag: true },
          },
        ],
      },
    });
    expect(tf).toContain('# not written: ha-sync-batch-size, flag');
    expect(tf).toContain('definition = {\n      "max-length" = "5"\n      "queue-mode" = "lazy"\n    }');
  });
});
