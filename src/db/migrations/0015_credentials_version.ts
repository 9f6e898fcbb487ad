import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * One number for the whole database that the database raises itself whenever a row that a
 * token's subject is made of changes: the token, its team's organization access, the team's
 * workspace and project grants (with the project a granted workspace is in), and the
 * organizations that refuse site-admin tokens. A process keeps the subjects of the tokens it
 * has seen (src/auth/subject-cache.ts) only while the number is the one it read them at, so a
 * revoked token or a changed grant takes effect at once in every process. Triggers rather than
 * application code, so that no write path can forget it; a new token or team is no one's
 * subject yet, and a token's last use is not part of it. A later migration that rebuilds one of
 * these tables on SQLite (copy, drop, rename) must create its triggers again.
 */
type Change = { table: string; event: string; when?: string };
const CHANGES: Change[] = [
  { table: 'tokens', event: 'update of token_hash, kind, organization_id, team_id, expired_at' },
  { table: 'tokens', event: 'delete' },
  { table: 'teams', event: 'update of is_owners, manage_workspaces, manage_projects, read_workspaces, read_projects, other_access' },
  { table: 'teams', event: 'delete' },
  ...['insert', 'update', 'delete'].map((event) => ({ table: 'team_workspaces', event })),
  ...['insert', 'update', 'delete'].map((event) => ({ table: 'team_projects', event })),
  { table: 'workspaces', event: 'update of project_id', when: 'old.project_id is distinct from new.project_id' },
  // Only an organization that refuses user tokens is part of a (site-admin) subject.
  { table: 'organizations', event: 'insert', when: 'new.user_tokens_enabled = 0' },
  { table: 'organizations', event: 'update of user_tokens_enabled', when: 'old.user_tokens_enabled is distinct from new.user_tokens_enabled' },
  { table: 'organizations', event: 'delete', when: 'old.user_tokens_enabled = 0' },
];

/** `tokens_update_credentials` and the like: a table has one trigger per kind of event. */
const triggerName = (table: string, event: string) => `${table}_${event.split(' ')[0]}_credentials`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('credentials_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addCheckConstraint('credentials_version_one_row', sql`id = 1`)
    .execute();
  await sql`insert into credentials_version (id, version) values (1, 0)`.execute(db);
  const run = (text: string) => sql.raw(text).execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Deferred to the commit and once per transaction: the one row is locked only while a
    // transaction commits, after all its other locks, so that it can take part in no deadlock.
    await run(`create function raise_credentials_version() returns trigger language plpgsql as $$
      begin
        if current_setting('varsetd.credentials_raised', true) is distinct from 'on' then
          perform set_config('varsetd.credentials_raised', 'on', true);
          update credentials_version set version = version + 1;
        end if;
        return null;
      end $$`);
    for (const { table, event, when } of CHANGES) {
      await run(`create constraint trigger ${triggerName(table, event)} after ${event} on ${table}
        deferrable initially deferred for each row ${when ? `when (${when})` : ''} execute function raise_credentials_version()`);
    }
  } else {
    for (const { table, event, when } of CHANGES) {
      await run(`create trigger ${triggerName(table, event)} after ${event} on ${table} ${when ? `when ${when}` : ''}
        begin update credentials_version set version = version + 1; end`);
    }
  }
}
