-- The SQL of src/auth/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteOwnedToken: a team's token
delete from "tokens" where "kind" = $1 and "legacy" = $2 and "team_id" = $3;

-- deleteSiteAdminTokens: all but one
delete from "tokens" where "kind" = $1 and "description" = $2 and "token_hash" <> $3 returning "token_hash";

-- deleteTokenById: by id
delete from "tokens" where "id" = $1;

-- findCredentialsVersion: current
select "version" from "credentials_version";

-- findOwnedToken: a team's
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."kind" = $1 and "tokens"."legacy" = $2 and "tokens"."team_id" = $3;

-- findOwnedToken: an organization's
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."kind" = $1 and "tokens"."legacy" = $2 and "tokens"."organization_id" = $3;

-- findTeamGrants: a team's
select "team_workspaces"."workspace_id", "workspaces"."project_id", "team_workspaces"."access", "team_workspaces"."runs", "team_workspaces"."variables", "team_workspaces"."workspace_locking", "team_workspaces"."run_tasks" from "team_workspaces" inner join "workspaces" on "workspaces"."id" = "team_workspaces"."workspace_id" where "team_workspaces"."team_id" = $1;
select "project_id", "access", "settings", "teams", "variable_sets", "workspace_create", "workspace_move", "workspace_delete", "workspace_runs", "workspace_variables", "workspace_locking", "workspace_run_tasks" from "team_projects" where "team_id" = $1;

-- findTeamTokenById: by id
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."id" = $1 and "tokens"."kind" = $2;

-- findTokenByHash: by hash
select "credentials_version"."version" as "credentials_version", "organizations"."id" as "refusing_organization_id", "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "owner"."name" as "organization_name", "teams"."name" as "team_name", "tokens"."expired_at", "tokens"."last_used_at", "teams"."is_owners", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access" from "tokens" left join "teams" on "teams"."id" = "tokens"."team_id" left join "organizations" as "owner" on "owner"."id" = "tokens"."organization_id" left join "organizations" on "tokens"."kind" = $1 and "organizations"."user_tokens_enabled" = $2 inner join "credentials_version" on true where "tokens"."token_hash" = $3;

-- findTokenById: by id
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."id" = $1;

-- insertToken: a token
insert into "tokens" ("id", "kind", "organization_id", "team_id", "description", "created_at", "expired_at", "legacy", "created_by_kind", "created_by_id", "last_used_at", "token_hash") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- listTeamTokens: every team
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $3 and "tokens"."organization_id" = $4 order by "tokens"."created_at" asc, "tokens"."id" asc limit $5 offset $6;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2) as "n";

-- listTeamTokens: by team name, descending
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2 and "teams"."search_name" like $3 escape '\') as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $4 and "tokens"."organization_id" = $5 and "teams"."search_name" like $6 escape '\' order by "teams"."search_name" desc, "tokens"."id" desc limit $7 offset $8;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2 and "teams"."search_name" like $3 escape '\') as "n";

-- listTeamTokens: one team
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2 and "tokens"."team_id" = $3) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $4 and "tokens"."organization_id" = $5 and "tokens"."team_id" = $6 order by "tokens"."last_used_at" asc, "tokens"."id" asc limit $7 offset $8;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2 and "tokens"."team_id" = $3) as "n";

-- listTeamTokens: by creator
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $3 and "tokens"."organization_id" = $4 order by "tokens"."created_by_id" asc, "tokens"."id" asc limit $5 offset $6;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2) as "n";

-- listTeamTokens: by expiry
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $3 and "tokens"."organization_id" = $4 order by "tokens"."expired_at" asc, "tokens"."id" asc limit $5 offset $6;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = $1 and "tokens"."organization_id" = $2) as "n";

-- listTokens: every token
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", "organizations"."name" as "organization_name", "teams"."name" as "team_name" from "tokens" left join "organizations" on "organizations"."id" = "tokens"."organization_id" left join "teams" on "teams"."id" = "tokens"."team_id" order by "tokens"."created_at", "tokens"."id";

-- listTokens: an organization's
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", "organizations"."name" as "organization_name", "teams"."name" as "team_name" from "tokens" left join "organizations" on "organizations"."id" = "tokens"."organization_id" left join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."organization_id" = $1 order by "tokens"."created_at", "tokens"."id";

-- siteAdminTokenExists: any
select "id" from "tokens" where "kind" = $1;

-- teamTokenDescriptionTaken: taken
select "id" from "tokens" where "team_id" = $1 and "legacy" = $2 and "description" = $3;

-- tokenHashExists: by hash
select "id" from "tokens" where "token_hash" = $1;

-- touchToken: last used
update "tokens" set "last_used_at" = $1 where "id" = $2;
