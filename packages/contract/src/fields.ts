/** The request fields every broker route shares, as zod schemas (the server validates with them). */
import { z } from 'zod';
import { utf8ByteLength } from '@retry-studio/topology-core/model';

const MAX_NAME_BYTES = 255;

export const brokerUrlField = z.string().min(1).max(2048);

/** A name prefix: what every exchange and queue of the design is deployed under. */
export const prefixField = z
  .string()
  .max(100)
  .refine((s) => !/[\r\n]/.test(s), 'prefix must not contain a line break')
  .refine((s) => !s.startsWith('amq.'), 'prefix must not start with "amq." (reserved by the broker)');

export const vhostField = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => utf8ByteLength(s) <= MAX_NAME_BYTES, 'vhost name is longer than 255 bytes')
  .refine((s) => !/[\r\n]/.test(s), 'vhost must not contain a line break');

/** the broker's management API, e.g. http://127.0.0.1:15673 (default: discovered, and always checked to be the same broker) */
export const managementUrlField = z.string().min(1).max(2048);

export const queueField = z.string().min(1).max(255);

/** Where a deploy-side request goes: the broker, its management API, the name prefix and the vhost. */
export const targetFields = {
  broker: brokerUrlField.optional(),
  managementUrl: managementUrlField.optional(),
  prefix: prefixField.optional(),
  vhost: vhostField.optional(),
};

/** Where an operate request goes (no prefix: operate reads a vhost as it is). */
export const operateTargetFields = {
  broker: brokerUrlField.optional(),
  /** the management API's base URL (default: the first of managementCandidates that is the same broker) */
  managementUrl: managementUrlField.optional(),
  vhost: vhostField.optional(),
};
