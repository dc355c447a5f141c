/**
 * @retry-studio/topology-core: import from its faces, one per floor (bottom first):
 *   @retry-studio/topology-core/model       the topology (definitions shape), consumers, publishers, the design document, validation, x-death
 *   @retry-studio/topology-core/text        small text helpers (ordinals, repeats)
 *   @retry-studio/topology-core/routing     exchange routing: topic and headers matching, the exchange index, alternate exchanges, radlx, the delayed-message exchange
 *   @retry-studio/topology-core/behaviour   what a consumer behaviour does with a delivery (the simulator and the live trace workers share it)
 *   @retry-studio/topology-core/sim         the simulator: events (the one event vocabulary), profiles, simulate, message traces, retry ending
 *   @retry-studio/topology-core/scenario    retry-scenario/1: types, loading, running on the simulator, comparison
 *   @retry-studio/topology-core/io          importers and exporters (definitions, design JSON, terraform, rabbitmqadmin, operator, asyncapi, code)
 *   @retry-studio/topology-core/frameworks  each application framework as one object (detection, reader, defaults, keys, fixes)
 *   @retry-studio/topology-core/lint        the design linter and its rules
 *   @retry-studio/topology-core/budget      the retry budget: time, hops and load per message
 *   @retry-studio/topology-core/operate     operating a live broker: import, dead letters, re-drive (pure: the server does the I/O)
 *   @retry-studio/topology-core/upgrade     the upgrade check: what a broker upgrade changes for a design
 *   @retry-studio/topology-core/templates   the retry templates and their catalogue
 *   @retry-studio/topology-core/appconfig   import-app: an application's retry configuration, as it runs, read as a design
 *   @retry-studio/topology-core/agreement   the consistency check: every place states the same outcome, lint agrees with the simulation
 *   @retry-studio/topology-core/tune        the tuner: strategies and parameters searched against a failure profile and goals
 *   @retry-studio/topology-core/sizing      the size of a piece of work estimated before it starts, held against a budget (server workers, CLI)
 * The root re-exports the model face only: the vocabulary every other face speaks.
 */
export * from './model/index.js';
