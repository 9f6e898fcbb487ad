-- The SQL of src/db/transaction.ts on PostgreSQL, written by npm run sql:snapshots.

-- appendAtCommit: a set's new time, its version and an event, held back to the end (one statement on PostgreSQL)
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."id" = $1;
with appended_0 as (update "varsets" set "updated_at" = $1 where "id" = $2), appended_1 as (insert into "varset_versions" ("id", "varset_id", "organization_id", "project_id", "number", "action", "rolled_back_to", "varset_name", "created_at", "actor_token_id", "actor_kind", "actor_team_id", "actor_description", "request_id", "changes", "sealed", "cause") values ($3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)) insert into "audit_events" ("id", "organization_id", "timestamp", "auth_type", "accessor_id", "auth_description", "request_id", "resource_id", "resource_type", "action", "meta") values ($20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30);

-- takenBack: a read, taken back
select "id" from "organizations";

-- transaction: a read
select "id" from "organizations";

-- withOrganizationLocked: by id
with locked as (select id from organizations where id = $1 for update) select array(select name from kysely_migration where name > $2 order by name) as newer, (select version from credentials_version) as credentials_version, (select count(*) from locked) as locked;

-- withOrganizationLocked: by id, taken back
with locked as (select id from organizations where id = $1 for update) select array(select name from kysely_migration where name > $2 order by name) as newer, (select version from credentials_version) as credentials_version, (select count(*) from locked) as locked;

-- withOrganizationLocked: by a set's id
with locked as (select id from organizations where id = (select organization_id from varsets where id = $1) for update) select array(select name from kysely_migration where name > $2 order by name) as newer, (select version from credentials_version) as credentials_version, (select count(*) from locked) as locked;
