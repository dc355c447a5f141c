import { BrokerConnectError, ManagementError, ManagementResolutionError } from '../broker/index.js';
import { HttpError } from './httpError.js';
import { ClusterNotReadyError } from '../deploy/clusterNotReady.js';

/** What a step reads through the management API, for the error when it has none. */
const SEES: Record<string, string> = {
  plan: "the broker's vhosts, exchanges, queues and bindings",
  deploy: "the broker's vhosts, exchanges, queues and bindings (and creates vhosts)",
  teardown: "the queues' unacked messages and the vhosts it created",
  trace: 'the deployed objects and the queue depths',
};

/**
 * Broker-side failures become 502 with our message (never amqplib's, never a password), prefixed
 * with the step. A management API that is another broker's is a bad request (400); every
 * management problem names the field `managementUrl` and what the step cannot see without it.
 */
export const brokerFailure =
  (step: 'probe' | 'plan' | 'deploy' | 'teardown' | 'trace') =>
  (err: unknown): never => {
    if (err instanceof BrokerConnectError) throw new HttpError(502, `${step}: ${err.message}`, 'broker');
    if (err instanceof ManagementResolutionError) {
      const sees = SEES[step] ? `; without it the ${step} cannot see ${SEES[step]}` : '';
      throw new HttpError(
        err.problem === 'other-broker' ? 400 : 502,
        `${step}: ${err.message}${sees}`,
        'managementUrl',
        { management: { tried: err.resolution.tried } },
      );
    }
    if (err instanceof ClusterNotReadyError)
      throw new HttpError(409, `${step}: ${err.message}`, 'broker', { cluster: { problems: err.problems } });
    if (err instanceof ManagementError) throw new HttpError(502, `${step}: ${err.message}`, 'broker');
    throw err;
  };
