import { BrokerConnectError, ManagementError, ManagementResolutionError } from '../broker/index.js';
import { HttpError } from './httpError.js';

/**
 * Broker-side failures become 502 with our message (never amqplib's, never a password). A
 * management API that is another broker's is a bad request (400); any other management problem
 * names the field too.
 */
export function brokerFailure(err: unknown): never {
  if (err instanceof BrokerConnectError) throw new HttpError(502, err.message, 'broker');
  if (err instanceof ManagementResolutionError) throw new HttpError(err.problem === 'other-broker' ? 400 : 502, err.message, 'managementUrl', { management: { tried: err.resolution.tried } });
  if (err instanceof ManagementError) throw new HttpError(502, err.message, 'broker');
  throw err;
}
