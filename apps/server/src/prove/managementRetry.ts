/**
 * A read of the management API, tried again when it does not answer in time: the brokers a proof
 * runs on are shared, and a busy management API answered a listing after more than 5 s (3.10).
 */
import { ManagementError } from '../broker/index.js';

export const MANAGEMENT_TRIES = 6;

export async function retryRead<T>(read: () => Promise<T>, tries = MANAGEMENT_TRIES): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof ManagementError) || i >= tries) throw e;
      await new Promise((r) => setTimeout(r, 1000 * i));
    }
  }
}
