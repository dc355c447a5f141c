/** Request of /api/upgrade/verify (the Upgrade view's "verify on a broker", the CLI's `upgrade-check --verify-on`). */
import { z } from 'zod';
import { brokerUrlField, managementUrlField } from './fields.js';

const profileField = z.enum(['3.10', '4.x', '4.3']);

export const upgradeVerifyRequest = z
  .object({
    /** the design as it is (checked by the core's parseDesign) */
    design: z.unknown(),
    from: profileField,
    to: profileField,
    /** the target broker: its line must be `to` */
    broker: brokerUrlField.optional(),
    managementUrl: managementUrlField.optional(),
    failFirst: z.number().int().min(1).max(50).optional(),
  })
  .strict();
