import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '../../../src/audit/model.js';
import { insertAuditEvent } from '../../../src/audit/store.js';
import { transaction } from '../../../src/db/transaction.js';
import type { TestApp } from '../app.js';

/** What the audit trail tests share. */

/** An organization's id, as events name it (responses name an organization by its name). */
export async function organizationId(t: TestApp, org: string): Promise<string> {
  return (await t.store.db.selectFrom('organizations').select('id').where('name', '=', org).executeTakeFirstOrThrow())
    .id;
}

/** An event of `organizationId` at `timestamp`, written as a write would write it (by `who`, of `type` and `action`); returns its id. */
export async function insertEvent(
  t: TestApp,
  organizationId: string,
  timestamp: string,
  { who = 'test', type = 'workspace', action = 'update' }: { who?: string; type?: string; action?: string } = {},
): Promise<string> {
  const event: AuditEvent = {
    id: randomUUID(),
    organizationId,
    timestamp,
    auth: { type: 'Client', accessorId: 'at-test', description: who },
    requestId: randomUUID(),
    resource: { id: 'ws-test', type, action, meta: { name: 'test' } },
  };
  await transaction(t.store, async (trx) => {
    insertAuditEvent(trx, event);
  });
  return event.id;
}
