/**
 * The whole-file view of `--verify-on`: the original topology imported as one definitions file
 * (`POST /api/definitions/{vhost}`, what `rabbitmqctl import_definitions` does) into a throwaway
 * vhost, the broker's answer, and what it had created before it refused (4.3.6 creates the
 * file's exchanges, then refuses a mirroring policy, and creates no queue). Deleted afterwards.
 */
import { exportDefinitions } from '@retry-studio/topology-core/io';
import { type Topology } from '@retry-studio/topology-core/model';
import { type UpgradeFinding } from '@retry-studio/topology-core/upgrade';
import { errText, type VerifyTarget } from './verifyUpgrade.js';
import { inThrowawayVhost } from '../broker/throwawayVhost.js';
import type { ImportOutcomeView } from '@retry-studio/contract';

/** the contract's shape (POST /api/upgrade/verify answers with it): one definition */
export type ImportOutcome = ImportOutcomeView;

export async function verifyImport(
  t: VerifyTarget,
  topology: Topology,
  predicted: readonly UpgradeFinding[],
): Promise<ImportOutcome> {
  const predictedRefused = predicted.some((f) => f.kind === 'refused');
  const { vhost, result, cleanedUp } = await inThrowawayVhost(t.management, 'import', async (vhost) => {
    let brokerSaid: string | undefined;
    try {
      await t.management.loadDefinitions(vhost, exportDefinitions(topology));
    } catch (e) {
      brokerSaid = errText(e);
    }
    const created: ImportOutcome['created'] = {
      exchanges: (await t.management.listExchanges(vhost))
        .map((x) => x.name)
        .filter((n) => n !== '' && !n.startsWith('amq.')),
      queues: (await t.management.listQueues(vhost)).map((q) => q.name),
    };
    return { brokerSaid, created };
  });
  const { brokerSaid, created } = result;
  const accepted = brokerSaid === undefined;
  return {
    vhost,
    accepted,
    ...(brokerSaid !== undefined ? { brokerSaid } : {}),
    predictedRefused,
    agrees: accepted !== predictedRefused,
    created,
    cleanedUp,
  };
}
