/** Request of /api/upgrade/verify (the Upgrade view's "verify on a broker", the CLI's `upgrade-check --verify-on`). */
import { z } from 'zod';
import { BROKER_PROFILE_IDS } from '@retry-studio/topology-core/model';
import { brokerUrlField, managementUrlField } from './fields.js';

const profileField = z.enum(BROKER_PROFILE_IDS);

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
