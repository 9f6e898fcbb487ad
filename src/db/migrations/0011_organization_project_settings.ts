import { type Kysely } from 'kysely';

/**
 * The settings HCP Terraform clients write on organizations and projects. An organization
 * keeps its settings as one JSON object (`settings`, read with HCP Terraform's defaults for
 * whatever it does not hold) and its name and email folded for `q`. A project keeps the
 * default execution mode it answers: its own when it overwrites its organization's, a copy of
 * its organization's otherwise (kept up to date by the organization's updates). Every
 * organization existing before had the default mode, `remote`.
 */

/** The fold as it was when this migration was written; a released migration must not follow later changes of `searchable`. */
const fold = (text: string) => text.toUpperCase().toLowerCase();

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('search_name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('search_email', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const organizations: { id: string; name: string; email: string }[] = await db.selectFrom('organizations').select(['id', 'name', 'email']).execute();
  for (const organization of organizations) {
    await db
      .updateTable('organizations')
      .set({ search_name: fold(organization.name), search_email: fold(organization.email) })
      .where('id', '=', organization.id)
      .execute();
  }

  await db.schema.alterTable('projects').addColumn('auto_destroy_activity_duration', 'text').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('default_execution_mode', 'text', (c) => c.notNull().defaultTo('remote'))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('execution_mode_overwritten', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
