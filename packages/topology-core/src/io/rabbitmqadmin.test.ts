import { describe, expect, it } from 'vitest';
import { templateDesign } from '../../testing/templateDesign.js';
import { exportRabbitmqadmin } from './rabbitmqadmin.js';

const topology = (id: string) => templateDesign(id).topology;

describe('rabbitmqadmin v2 script', () => {
  it('passes the script arguments before every subcommand and carries the queue type in --type', () => {
    const s = exportRabbitmqadmin(topology('quorum-delivery-limit'));
    const calls = s.split('\n').filter((l) => l.startsWith('rabbitmqadmin'));
    expect(calls.length).toBeGreaterThan(3);
    for (const c of calls) expect(c.startsWith('rabbitmqadmin "$@" declare ')).toBe(true);
    expect(s).toContain(
      `declare queue --name 'jobs.q' --type 'quorum' --durable 'true' --auto-delete 'false' --arguments '{"x-delivery-limit":3,"x-dead-letter-exchange":"jobs.dlx"}'`,
    );
  });

  it('a vhost option is a default that a --vhost argument overrides; an internal exchange goes through a definitions import', () => {
    const t = topology('requeue-once');
    const s = exportRabbitmqadmin(
      { ...t, exchanges: [...t.exchanges, { name: "it's", type: 'fanout', internal: true }] },
      { vhost: "o'k" },
    );
    expect(s).toContain(
      `if [ -z "\${RABBITMQADMIN_TARGET_VHOST+set}" ]; then RABBITMQADMIN_TARGET_VHOST='o'\\''k'; export RABBITMQADMIN_TARGET_VHOST; fi`,
    );
    expect(s).toContain(
      `rabbitmqadmin "$@" definitions import_into_vhost --stdin <<'RETRY_STUDIO_EOF'\n{"exchanges":[{"name":"it's","type":"fanout","durable":true,"auto_delete":false,"internal":true,"arguments":{}}]}\nRETRY_STUDIO_EOF`,
    );
  });
});
