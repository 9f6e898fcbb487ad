import type { Context } from '../auth/context.js';
import { ensureReadsSensitiveValues } from '../auth/decisions.js';
import { openSensitiveValues, type SensitiveValue } from '../variables/service.js';
import { readableVarset } from './access.js';
import { variablesOf } from './model.js';

/**
 * A set's sensitive values opened, to the site administrator alone (a 403 to any other token),
 * each read an audit event of the set: what `varsetd import --include-sensitive` reads of a
 * varsetd source. Never kept by the response cache.
 */
export async function readVarsetSensitiveValues(ctx: Context, varsetId: string): Promise<SensitiveValue[]> {
  ensureReadsSensitiveValues(ctx.subject);
  const { varset } = await readableVarset(ctx, varsetId, false);
  return openSensitiveValues(
    ctx,
    { organizationId: varset.organization_id, type: 'varset', id: varset.id, meta: { name: varset.name } },
    variablesOf(varset),
  );
}
