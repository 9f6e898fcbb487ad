import { PostgresAdapter, sql, type Kysely } from 'kysely';

const STATUSES = sql`status in ('pending', 'uploaded', 'errored', 'archived')`;

/**
 * A configuration version may become `archived`: its archive is discarded, the row stays for
 * the runs that used it, with when that happened (`archived_at`).
 *
 * SQLite cannot change a CHECK constraint, so the table is rebuilt. Foreign-key enforcement
 * is switched off around the rebuild: with it on, dropping the old table would first delete
 * its rows and cascade to every run and archive. The pragma has no effect inside a
 * transaction, hence before and after it; `foreign_key_check` proves no reference broke.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table configuration_versions drop constraint configuration_versions_status_check`.execute(db);
    await sql`alter table configuration_versions add constraint configuration_versions_status_check check (${STATUSES})`.execute(db);
    await db.schema.alterTable('configuration_versions').addColumn('archived_at', 'text').execute();
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('configuration_versions_rebuilt')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull().check(STATUSES))
        .addColumn('auto_queue_runs', 'integer', (c) => c.notNull())
        .addColumn('speculative', 'integer', (c) => c.notNull())
        .addColumn('provisional', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('error_message', 'text')
        .addColumn('upload_secret_hash', 'text', (c) => c.unique())
        .addColumn('upload_expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('uploaded_at', 'text')
        .addColumn('errored_at', 'text')
        .addColumn('archived_at', 'text')
        .execute();
      const columns = sql.raw(
        'seq, id, workspace_id, status, auto_queue_runs, speculative, provisional, error, error_message, upload_secret_hash, upload_expires_at, created_at, uploaded_at, errored_at',
      );
      await sql`insert into configuration_versions_rebuilt (${columns}) select ${columns} from configuration_versions`.execute(trx);
      await trx.schema.dropTable('configuration_versions').execute();
      await trx.schema.alterTable('configuration_versions_rebuilt').renameTo('configuration_versions').execute();
      await trx.schema.createIndex('configuration_versions_workspace_idx').on('configuration_versions').columns(['workspace_id', 'seq']).execute();
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`rebuilding configuration_versions broke ${broken.rows.length} references`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
