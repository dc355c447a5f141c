/** The sources the upgrade rules cite (one place, so a URL is written once). */
import type { UpgradeSource } from './types.js';

const notes = (version: string): UpgradeSource => ({
  kind: 'release-notes',
  url: `https://github.com/rabbitmq/rabbitmq-server/releases/tag/v${version}`,
});

export const SOURCES = {
  /** 4.0: classic queue mirroring removed ("Classic Queues is Now a Non-Replicated Queue Type") */
  rn400: notes('4.0.1'),
  /** 4.0: quorum queues get a default delivery limit of 20 (PR #11937) */
  rn400DeliveryLimit: {
    kind: 'release-notes',
    url: 'https://github.com/rabbitmq/rabbitmq-server/pull/11937',
  } as UpgradeSource,
  /** 3.12: lazy mode gone, x-queue-mode ignored */
  rn312: notes('3.12.0'),
  /** 4.3: CQv1 removed, Mnesia removed, deprecated features disabled by default, delayed retry */
  rn430: notes('4.3.0'),
  /** the delayed-message exchange plugin (archived January 2026; built on Mnesia) */
  delayedPlugin: {
    kind: 'release-notes',
    url: 'https://github.com/rabbitmq/rabbitmq-delayed-message-exchange',
  } as UpgradeSource,
  /** the real-world corpus loaded into both test brokers (POST /api/definitions/VHOST) */
  measuredCorpus: {
    kind: 'measured',
    where: 'apps/server/src/cli/corpus/README.md (POST /api/definitions/VHOST on 3.10.8 and 4.3.6)',
  } as UpgradeSource,
  measured: { kind: 'measured', where: '../shared/reference/upgrade-3-to-4.md (3.10.8 and 4.3.6)' } as UpgradeSource,
  quorumDeliveryLimit: {
    kind: 'scenario',
    name: 'quorum-delivery-limit',
    path: '../shared/conformance/scenarios/quorum-delivery-limit.json (3.10.8; never settles on 4.3.6)',
  } as UpgradeSource,
  republishXDeath: {
    kind: 'scenario',
    name: 'republish-xdeath-count-continues',
    path: 'packages/topology-core/conformance/scenarios{,-4.3}/republish-xdeath-count-continues.json',
  } as UpgradeSource,
  quorumDelayedRetry: {
    kind: 'scenario',
    name: 'quorum-delayed-retry-reject-requeue',
    path: '../shared/conformance/scenarios-4.3/quorum-delayed-retry-reject-requeue.json',
  } as UpgradeSource,
} as const;
