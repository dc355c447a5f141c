/** What each corpus file holds, written from reading it (the README says what each is there for). */

export interface Expect {
  /** vhost -> queues the design holds (after skipping what the model does not hold) */
  readonly vhosts?: Readonly<Record<string, number>>;
  /** the load fails: the error's code */
  readonly error?: string;
  /** lint rule ids that must be among the findings */
  readonly findings?: readonly string[];
  /** lint rule ids that must not be among the findings (a wrong finding once made) */
  readonly absent?: readonly string[];
  /** warning codes that must be among the validation warnings */
  readonly notes?: readonly string[];
  /** the test brokers refuse the file (what they answered): it is not loaded into them */
  readonly brokerRefuses?: string;
}

/** Written from reading each file (see README.md for what each one is there for). */
export const EXPECTED: Readonly<Record<string, Expect>> = {
  'alphagov-publishing-rabbitmq-schema.json.tpl': { error: 'json-syntax' },
  'alphagov-publishing-rendered.json': { vhosts: { publishing: 12 }, notes: ['policy-priority-tie', 'not-imported'] },
  // a federation policy key: read with a note (issue 21: never a refusal of the file); the policy has nothing else and is
  // not imported. Both test brokers (no federation plugin) refuse the vhost (README says what each answered), so
  // broker-recorded.json has no entry for it
  'cluster-operator-federation-over-tls.json': {
    vhosts: { downstream: 2, upstream: 2 },
    notes: ['not-imported', 'skipped'],
    brokerRefuses: 'both test brokers (no federation plugin) refuse the federation-upstream policy key',
  },
  'cluster-operator-import-definitions.json': {
    vhosts: { 'hello-world': 2 },
    findings: ['quorum-default-delivery-limit'],
    notes: ['not-imported'],
  },
  'iqkv-microservices-platform.json': { vhosts: { '/': 3 } },
  // issue 38 batch: a queue no binding feeds (published to by its name), x-queue-type classic written out
  'cdcgov-processing-status-unbound-queue.json': { vhosts: { '/': 2 }, notes: ['not-imported'] },
  // one vhost of its own, six queues behind one direct exchange, and a topic exchange nothing binds
  'czertainly-provisioning-vhost.json': { vhosts: { czertainly: 7 }, notes: ['not-imported'] },
  // a Helm chart's definitions (Go template conditionals inside the JSON): named as a template, never read half
  'jfrog-xray-helm-load-definition.json.tpl': { error: 'json-syntax' },

  'localega-cega-routing.json': { vhosts: { '/': 2 }, notes: ['not-imported'] },
  'localega-cega-test-vhost.json': { vhosts: { test: 4 }, notes: ['not-imported'] },
  'localega-qc-exchange-binding.json': { vhosts: { '/': 5 } },
  'localega-tools-two-vhosts.json': { vhosts: { '/': 6, test: 4 } },
  'rabbitmq-case13.json': {
    vhosts: { '/': 1 },
    findings: ['overflow-drops-silently', 'quorum-default-delivery-limit'],
  },
  // a non-durable, auto-delete stream with x-max-length: 3.10.8 and 4.3.6 both refuse it ("invalid arg 'x-max-length' ... rabbit_stream_queue")
  'rabbitmq-case13a-stream.json': { error: 'argument-queue-type' },
  'rabbitmq-case14.json': { vhosts: { '/': 1 } },
  'rabbitmq-case16.json': { error: 'definitions-empty' },
  'rabbitmq-case25.json': { error: 'definitions-empty' },
  'rabbitmq-case3.json': { vhosts: { '/': 5 } },
  'rabbitmq-case8.json': { error: 'definitions-empty' },
  'rabbitmq-case9a.json': { vhosts: { bunny_testbed: 1, '/': 17 }, notes: ['skipped', 'missing-exchange'] },
  'rabbitmq-cli-fixture.json': { vhosts: { '/': 0 } },
  // RabbitMQ's own failing cases: unreadable JSON (line and column), a binding to a destination type that does not exist
  'rabbitmq-failing-case20-malformed.json': { error: 'json-syntax' },
  // no vhost field anywhere: a per-vhost export (what GET /api/definitions/VHOST returns); RabbitMQ's suite
  // fails it as a cluster-wide import, POST /api/definitions/VHOST loads it on both brokers
  'rabbitmq-failing-case21-no-vhost.json': { vhosts: { '(none)': 3 } },
  'rabbitmq-failing-case27-destination-type.json': { error: 'field-type' },
  'rabbitmq-mgmt-case10a.json': { vhosts: { bunny_testbed: 1 }, notes: ['skipped', 'not-imported'] },
  'rabbitmq-stream-dotnet-super-stream.json': { vhosts: { '/': 3 }, notes: ['unknown-argument', 'not-imported'] },
  // the real TTL retry loop: ClusterA -> build (key ClusterAdlr) -> ClusterAdlr (5 s TTL) -> build (key ClusterA) -> ClusterA,
  // the same for ClusterB, and ClusterARetry/ClusterBRetry through a 60 s policy TTL; only the worker's x-death count ends it.
  // ClusterA has a TTL (8 h) as well as its dead-letter route, in a loop with the 5 s ClusterAdlr: the 8 h is a job
  // timeout, so the one consumer assumption (lint/assumedConsumers.ts) gives ClusterA a worker, and the loop is one a
  // rejecting worker keeps going every 5 s until it counts x-death (dead-letter-cycle-unbounded), not an expiry-only
  // cycle the broker drops (automatic-cycle-dropped, wrongly said before)
  'screwdriver-buildcluster-retry.json': {
    vhosts: { '/': 0, screwdriver: 9 },
    findings: ['dead-letter-cycle-unbounded'],
    absent: ['automatic-cycle-dropped'],
    notes: ['not-imported'],
  },
  'serilog-sinks-rabbitmq.json': { vhosts: { '/': 1 } },
  // issue 29's second batch. Users, limits and operator policies only: nothing to import, each said by name
  'rabbitmq-case15-user-tags.json': { error: 'definitions-empty' },
  'rabbitmq-case18-user-limits.json': { error: 'definitions-empty' },
  // vhost metadata with a default queue type (quorum on "protected"): no objects in any vhost
  'rabbitmq-case22-vhost-default-queue-type.json': { error: 'definitions-empty' },
  'rabbitmq-case23-operator-policy.json': { error: 'definitions-empty' },
  'rabbitmq-case24-operator-policy-limits.json': { error: 'definitions-empty' },
  'rabbitmq-case26-vhost-limits-operator-policy.json': { error: 'definitions-empty' },
  // a policy with no name: both brokers answer 400 "policy in virtual host ... has undefined name" (measured), so do we
  'rabbitmq-failing-case17-policy-without-name.json': { error: 'field-type' },
  // a user limit that is not a number: the broker's suite fails it; we import no users (said), nothing else is there
  'rabbitmq-failing-case19-user-limit-not-a-number.json': { error: 'definitions-empty' },
  // a destination_type in Japanese / with an accent: both brokers answer 400 function_clause after creating the queue (measured)
  'rabbitmq-failing-case28-destination-type-unicode.json': { error: 'field-type' },
  'rabbitmq-failing-case29-destination-type-accent.json': { error: 'field-type' },
  // a 4.1 beta export: a quorum queue with both `type` and x-queue-type, a vhost with default_queue_type, a version string with a build suffix
  'cluster-operator-multiple-files-definitions.json': {
    vhosts: { '/': 1 },
    findings: ['quorum-default-delivery-limit'],
    notes: ['not-imported'],
  },
  // the users half of a split definitions import: only users
  'cluster-operator-multiple-files-users.json': { error: 'definitions-empty' },
  // a user with a plain-text "password" (the broker hashes it on import; measured): only users and permissions
  'launchkit-plaintext-password.json': { error: 'definitions-empty' },
  // issue 29's third batch.
  // a queue argument "expires" without the x- (rabbitmqadmin-ng's fixture, a 3.11 release candidate): both brokers keep it
  // among the arguments and apply nothing (measured); we say the argument meant is x-expires
  'rabbitmqadmin-ng-queue-expires-without-x.json': { vhosts: { '/': 1 }, notes: ['unknown-argument', 'not-imported'] },
  // a 4.0.5 single-vhost export (no vhost fields, vhost metadata and limits at the top): a stream, a quorum and a classic
  // queue, a policy with apply-to classic_queues that 3.10.8 refuses (400, nothing created) and 4.3.6 applies to cq.1
  'rabbitmqadmin-ng-vhost-export-4.0.json': {
    vhosts: { '(none)': 3 },
    findings: ['overflow-drops-silently', 'quorum-default-delivery-limit'],
    notes: ['vhost-scoped-file', 'not-imported'],
  },
  // policies only (classic mirroring with ha-params node lists and counts): 3.10.8 keeps the four, 4.3.6 refuses the import
  'rabbitmq-prometheus-overview-ha-policies.json': { vhosts: { '/': 0 }, notes: ['not-imported'] },
  // policies for queues the applications declare (expires, max-length, ha-*, queue-master-locator, lazy) and one exchange;
  // 4.3.6 refuses the third policy after creating the exchange and the two policies before it
  'rabbitmq-case1-policies-only.json': { vhosts: { '/': 0 }, notes: ['not-imported'] },
  // one object per line, tabs and runs of spaces inside the lines; a queue (files) and an exchange (cega) nothing binds
  'localega-deployments-docker-defs.json': { vhosts: { '/': 4 }, notes: ['not-imported'] },
  // no rabbit_version; keys in an unusual order (durable before vhost); MinIO bucket events by key into two queues
  'scalabilityissues-minio-events.json': { vhosts: { '/': 2 }, notes: ['not-imported'] },
  // the same fixture with no arguments field on the queue (an object the CLI wrote by hand, keys in another order)
  'rabbitmqadmin-ng-queue-without-arguments.json': { vhosts: { '/': 1 }, notes: ['not-imported'] },
  // a 3.8.2 export indented with tabs: x-queue-type classic written out (3.8 knows queue types), one fanout
  'micronaut-rabbitmq-ssl-3.8.json': { vhosts: { '/': 1 }, notes: ['not-imported'] },
  // RabbitMQ's own selenium users file as committed with git merge-conflict markers: the error names the line and the conflict
  'rabbitmq-selenium-merge-conflict.json': { error: 'json-syntax' },
  // users, one queue, and no exchanges or bindings keys at all; blank lines after the array openings
  'rabbitmq-selenium-users-and-one-queue.json': { vhosts: { '/': 1 }, notes: ['not-imported'] },
  // rabbit_version "4.0" (two parts); four work queues with a 24 h TTL and no dead-letter exchange: what no consumer takes
  // in a day is dropped (ttl-queue-without-exit, info: the file does not say who consumes them)
  'tracktion-ttl-without-dlx.json': { vhosts: { '/': 4 }, findings: ['ttl-queue-without-exit'] },
  // issue 38's fourth batch (README: "Fourth batch"): 4.x-era exports, Kubernetes and Helm files.
  // ONS census RM: 26 work queues dead-letter to a headers exchange (no arguments: every message) onto a 15 s wait queue
  // that dead-letters back through the default exchange, each message to the work queue its key names: an unbounded
  // 15 s redelivery loop (only a consumer counting x-death ends it); the wait queue does not cycle into itself
  'ons-census-rm-delayed-redelivery.json': {
    vhosts: { '/': 33 },
    findings: ['dead-letter-cycle-unbounded'],
    absent: ['automatic-cycle-dropped'],
    notes: ['binding-end-undeclared', 'not-imported'],
  },
  // a 3.11 export: an alternate-exchange policy onto a topic exchange bound "#", streams with x-max-age, two shovels
  // from streams to classic queues (not imported), plain-text password placeholders
  'neicnordic-sda-alternate-exchange-streams.json': {
    vhosts: { sda: 14 },
    notes: ['not-imported', 'password-plain-text'],
  },
  // the same project's federation file: objects in vhost sda that its (empty) vhosts list does not declare, a
  // federation upstream, five shovels and a federation-upstream policy: both test brokers (no federation plugin) refuse
  'neicnordic-sda-federation-shovels.json': {
    vhosts: { sda: 1 },
    findings: ['plugin-required'],
    notes: ['not-imported', 'vhost-undeclared'],
    brokerRefuses: 'both test brokers (no federation plugin) refuse the federation-upstream policy key',
  },
  // RabbitMQ's own selenium file: a per-vhost file binding from the log exchange amq.rabbitmq.log, which is in the
  // default vhost only (4.3.6) or nowhere (3.10.8): skipped and said, as 3.10.8 skips it and 4.3.6 refuses it
  'rabbitmq-selenium-system-logging.json': {
    vhosts: { '(none)': 1 },
    notes: ['binding-end-undeclared', 'vhost-scoped-file'],
  },
  // Sentry's Helm values: a definitions JSON (an ha-all policy, users with Helm expressions) in rabbitmq.extraSecrets
  'sentry-helm-values-load-definition.yaml': { vhosts: { '/': 0 }, notes: ['read-from', 'not-imported'] },
  // messaging-topology-operator resources: Queue, Exchange and Binding (knative's predeclared sample)
  'knative-predeclared-resources.yaml': { vhosts: { '/': 1 }, notes: ['read-from'] },
  'topology-operator-shovel-queues-two-vhosts.yaml': {
    vhosts: { source: 1, destination: 1 },
    findings: ['quorum-default-delivery-limit'],
    notes: ['read-from'],
  },
  'topology-operator-stream-queue.yaml': { vhosts: { '/': 1 }, notes: ['read-from'] },
  'topology-operator-fanout-alternate-exchange.yaml': {
    vhosts: { '/test-vhost': 0 },
    notes: ['read-from', 'missing-exchange'],
  },
  'topology-operator-quorum-queue.yaml': {
    vhosts: { 'test-vhost': 1 },
    findings: ['quorum-default-delivery-limit'],
    notes: ['read-from'],
  },
  'topology-operator-policy.yaml': { vhosts: { '/a-vhost': 0 }, notes: ['read-from'] },
  // a SuperStream: the direct exchange, three streams and their bindings the operator declares for it
  'topology-operator-superstream.yaml': { vhosts: { '/': 3 }, notes: ['read-from'] },
  // a RabbitmqCluster alone: no objects; the error says where its definitions are loaded from (a ConfigMap)
  'cluster-operator-import-definitions-cluster.yaml': { error: 'definitions-empty' },
};
