/**
 * What a definitions file says, or leaves unsaid, about the vhost its objects go to, and what the
 * brokers do with it (measured on 3.10.8 and 4.3.6):
 * - objects with no `vhost` field: a per-vhost export (GET /api/definitions/VHOST); POST
 *   /api/definitions/VHOST loads it into that vhost, a cluster-wide import has nowhere to put them;
 * - objects in a vhost the file's `vhosts` list does not declare: a cluster-wide import fails with
 *   400 unless the vhost exists (3.10.8 no_such_vhost, 4.3.6 "Please create virtual host ...").
 */
import type { ValidationIssue } from '../model/validateResult.js';
import { objectCount, type VhostContents } from './definitionsVhosts.js';

export function vhostNotes(
  input: { readonly [k: string]: unknown },
  contents: readonly VhostContents[],
  read: string | undefined,
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const bare = contents.find((c) => c.name === undefined && objectCount(c) > 0);
  // 4.x writes where a per-vhost export came from (rabbitmqadmin-ng's 4.0.5 fixture: "original_vhost_name": "vh3")
  const origin =
    typeof input.original_vhost_name === 'string'
      ? ` (exported from vhost ${JSON.stringify(input.original_vhost_name)}: original_vhost_name)`
      : '';
  if (bare)
    out.push({
      path: '',
      code: 'vhost-scoped-file',
      message: `${objectCount(bare)} object(s) carry no vhost field: a per-vhost export (GET /api/definitions/VHOST)${origin}, read as one vhost. It loads into whichever vhost it is posted to (POST /api/definitions/VHOST, both brokers); a cluster-wide import (rabbitmqctl import_definitions) has no vhost to put them in`,
    });
  if (Array.isArray(input.vhosts)) {
    const declared = new Set(
      input.vhosts.map((v) => (v && typeof v === 'object' ? (v as { name?: unknown }).name : undefined)),
    );
    for (const c of contents)
      if (
        c.name !== undefined &&
        objectCount(c) > 0 &&
        !declared.has(c.name) &&
        (read === undefined || c.name === read)
      )
        out.push({
          path: 'vhosts',
          code: 'vhost-undeclared',
          message: `vhost ${JSON.stringify(c.name)} holds objects but the file's vhosts list does not declare it: a cluster-wide import fails with 400 unless the vhost already exists (3.10.8: no_such_vhost; 4.3.6: "Please create virtual host ... prior to importing definitions")`,
        });
  }
  return out;
}
