/** What each corpus file holds, written from reading it (the README says what each is there for). */

export interface Expect {
  /** vhost -> queues the design holds (after skipping what the model does not hold) */
  readonly vhosts?: Readonly<Record<string, number>>;
  /** the load fails: the error's code */
  readonly error?: string;
  /** lint rule ids that must be among the findings */
  readonly findings?: readonly string[];
  /** warning codes that must be among the validation warnings */
  readonly notes?: readonly string[];
}

/** Written from reading each file (see README.md for what each one is there for). */
export const EXPECTED: Readonly<Record<string, Expect>> = {
  'alexeyshutov-rabbitmq-messaging.json': { vhosts: { '/': 1 }, notes: ['not-imported'] },
  'alphagov-publishing-rabbitmq-schema.json.tpl': { error: 'json-syntax' },
  'alphagov-publishing-rendered.json': { vhosts: { publishing: 12 }, notes: ['policy-priority-tie', 'not-imported'] },
  'cdaprod-thatdamtoolbox.json': { vhosts: { '/': 5 } },
  'czertainly-provisioning.json': { vhosts: { '/': 0 } },
  'djviking-spring-boot-rabbitmq-demo.json': { vhosts: { demo: 2 } },
  'dokus.json': { vhosts: { '/dokus': 2 } },
  'gatenlp-neural-indexer.json': { vhosts: { '/': 1 } },
  'gridtokenx-platform-infa.json': { vhosts: { '/': 6 }, findings: ['dead-letter-unroutable'] },
  'iqkv-microservices-platform.json': { vhosts: { '/': 3 } },
  'rabbitmq-case13.json': { vhosts: { '/': 1 }, findings: ['overflow-drops-silently', 'quorum-default-delivery-limit'] },
  'rabbitmq-case14.json': { vhosts: { '/': 1 } },
  'rabbitmq-case16.json': { error: 'definitions-empty' },
  'rabbitmq-case25.json': { error: 'definitions-empty' },
  'rabbitmq-case3.json': { vhosts: { '/': 5 } },
  'rabbitmq-case8.json': { error: 'definitions-empty' },
  'rabbitmq-case9a.json': { vhosts: { bunny_testbed: 1, '/': 17 }, notes: ['skipped', 'missing-exchange'] },
  'rabbitmq-mgmt-case10a.json': { vhosts: { bunny_testbed: 1 }, notes: ['skipped', 'not-imported'] },
  'sda-sensitive-data-archive.json': { vhosts: { sda: 19 }, notes: ['not-imported'] },
  'serilog-sinks-rabbitmq.json': { vhosts: { '/': 1 } },
  'wki-messageq.json': { vhosts: { '/': 3 } },
};

