import type { Selectable } from 'kysely';
import type { VarsetNotificationConfigurationTable, VarsetNotificationResponseTable } from '../db/schema.js';
import type { Db } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import { KEPT_RESPONSES, type DeliveryResponse, type NotificationConfiguration, type Trigger } from './model.js';

/** The SQL of notification configurations and of the responses their deliveries got. */

function configurationOf(
  row: Selectable<VarsetNotificationConfigurationTable> & { organization_name: string },
): NotificationConfiguration {
  return {
    id: row.id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    name: row.name,
    destinationType: row.destination_type,
    url: row.url,
    sealedToken: row.token,
    enabled: row.enabled,
    triggers: JSON.parse(row.triggers) as Trigger[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const withOrganizationName = (db: Db) =>
  db
    .selectFrom('varset_notification_configurations')
    .innerJoin('organizations', 'organizations.id', 'varset_notification_configurations.organization_id')
    .selectAll('varset_notification_configurations')
    .select('organizations.name as organization_name');

export async function organizationExists(db: Db, organizationId: string): Promise<boolean> {
  return (
    (await db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst()) !==
    undefined
  );
}

export async function findConfiguration(db: Db, id: string): Promise<NotificationConfiguration | undefined> {
  const row = await withOrganizationName(db).where('varset_notification_configurations.id', '=', id).executeTakeFirst();
  return row && configurationOf(row);
}

export async function countConfigurations(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('varset_notification_configurations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of the organization's configurations, oldest first, and how many it has. */
export async function pageOfConfigurations(
  db: Db,
  organizationId: string,
  page: Page,
): Promise<{ rows: NotificationConfiguration[]; total: number }> {
  const rows = await withOrganizationName(db)
    .where('varset_notification_configurations.organization_id', '=', organizationId)
    .orderBy('varset_notification_configurations.seq')
    .limit(page.size)
    .offset((page.number - 1) * page.size)
    .execute();
  return { rows: rows.map(configurationOf), total: await countConfigurations(db, organizationId) };
}

function rowOf(configuration: NotificationConfiguration) {
  return {
    id: configuration.id,
    organization_id: configuration.organizationId,
    name: configuration.name,
    destination_type: configuration.destinationType,
    url: configuration.url,
    token: configuration.sealedToken,
    enabled: configuration.enabled,
    triggers: JSON.stringify(configuration.triggers),
    created_at: configuration.createdAt,
    updated_at: configuration.updatedAt,
  };
}

export async function insertConfiguration(db: Db, configuration: NotificationConfiguration): Promise<void> {
  await db.insertInto('varset_notification_configurations').values(rowOf(configuration)).execute();
}

export async function updateConfiguration(db: Db, configuration: NotificationConfiguration): Promise<void> {
  const { id, organization_id, created_at, ...changed } = rowOf(configuration);
  await db.updateTable('varset_notification_configurations').set(changed).where('id', '=', id).execute();
}

export async function deleteConfiguration(db: Db, id: string): Promise<void> {
  await db.deleteFrom('varset_notification_configurations').where('id', '=', id).execute();
}

/** Drops what is queued for a configuration and not yet sent (it was disabled). */
export async function dropQueuedDeliveries(db: Db, configurationId: string): Promise<void> {
  await db
    .deleteFrom('varset_notification_deliveries')
    .where('configuration_id', '=', configurationId)
    .where('status', '=', 'pending')
    .execute();
}

function responseOf(row: Selectable<VarsetNotificationResponseTable>): DeliveryResponse {
  return {
    url: row.url,
    code: row.code === null ? null : Number(row.code),
    body: row.body,
    headers: JSON.parse(row.headers) as Record<string, string[]>,
    error: row.error,
    successful: row.successful,
    sentAt: row.sent_at,
    varsetId: row.varset_id,
    versionNumber: row.version_number === null ? null : Number(row.version_number),
    attempt: row.attempt === null ? null : Number(row.attempt),
  };
}

/** The newest responses of each configuration, newest first: one statement for any number of them. */
export async function findResponses(db: Db, configurationIds: string[]): Promise<Map<string, DeliveryResponse[]>> {
  const byConfiguration = new Map<string, DeliveryResponse[]>(configurationIds.map((id) => [id, []]));
  if (!configurationIds.length) return byConfiguration;
  const rows = await db
    .selectFrom('varset_notification_responses')
    .selectAll()
    .where('configuration_id', 'in', configurationIds)
    .orderBy('id', 'desc')
    .execute();
  for (const row of rows) {
    const responses = byConfiguration.get(row.configuration_id)!;
    if (responses.length < KEPT_RESPONSES) responses.push(responseOf(row));
  }
  return byConfiguration;
}

/** Records a response and forgets those of the configuration beyond the newest KEPT_RESPONSES. */
export async function insertResponse(db: Db, configurationId: string, response: DeliveryResponse): Promise<void> {
  await db
    .insertInto('varset_notification_responses')
    .values({
      configuration_id: configurationId,
      url: response.url,
      code: response.code,
      body: response.body,
      headers: JSON.stringify(response.headers),
      error: response.error,
      successful: response.successful,
      sent_at: response.sentAt,
      varset_id: response.varsetId,
      version_number: response.versionNumber,
      attempt: response.attempt,
    })
    .execute();
  const oldestKept = db
    .selectFrom('varset_notification_responses')
    .select('id')
    .where('configuration_id', '=', configurationId)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(KEPT_RESPONSES - 1);
  await db
    .deleteFrom('varset_notification_responses')
    .where('configuration_id', '=', configurationId)
    .where('id', '<', oldestKept)
    .execute();
}
