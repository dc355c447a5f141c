/** The broker a request names (`broker`), or the configured default: a bad one is the request's fault (400/403 naming the field). */
import { AmqpUrlError, HostNotAllowedError, resolveBrokerUrl, type AmqpUrl } from '../broker/index.js';
import { HttpError } from './httpError.js';

export function brokerUrlFromRequest(input: string | undefined): AmqpUrl {
  try {
    return resolveBrokerUrl(input);
  } catch (err) {
    if (err instanceof AmqpUrlError) throw new HttpError(400, `bad broker URL: ${err.message}`, 'broker');
    if (err instanceof HostNotAllowedError) throw new HttpError(403, err.message, 'broker');
    throw err;
  }
}
