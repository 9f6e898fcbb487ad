-- The SQL of src/auth/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteOwnedToken: a team's token
delete from "tokens" where "kind" = +? and "legacy" = +? and "team_id" = +?;

-- deleteSiteAdminTokens: all but one
delete from "tokens" where "kind" = +? and "description" = +? and "token_hash" <> ? returning "token_hash";

-- deleteTokenById: by id
delete from "tokens" where "id" = +?;

-- findCredentialsVersion: current
select "version" from "credentials_version";

-- findOwnedToken: a team's
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."kind" = +? and "tokens"."legacy" = +? and "tokens"."team_id" = +?;

-- findOwnedToken: an organization's
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."kind" = +? and "tokens"."legacy" = +? and "tokens"."organization_id" = +?;

-- findTeamGrants: a team's
select "team_workspaces"."workspace_id", "workspaces"."project_id", "team_workspaces"."access", "team_workspaces"."runs", "team_workspaces"."variables", "team_workspaces"."workspace_locking", "team_workspaces"."run_tasks" from "team_workspaces" inner join "workspaces" on "workspaces"."id" = "team_workspaces"."workspace_id" where "team_workspaces"."team_id" = +?;
select "project_id", "access", "settings", "teams", "variable_sets", "workspace_create", "workspace_move", "workspace_delete", "workspace_runs", "workspace_variables", "workspace_locking", "workspace_run_tasks" from "team_projects" where "team_id" = +?;

-- findTeamTokenById: by id
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."id" = +? and "tokens"."kind" = +?;

-- findTokenByHash: by hash
select "credentials_version"."version" as "credentials_version", "organizations"."id" as "refusing_organization_id", "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "owner"."name" as "organization_name", "teams"."name" as "team_name", "tokens"."expired_at", "tokens"."last_used_at", "teams"."is_owners", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access" from "tokens" left join "teams" on "teams"."id" = "tokens"."team_id" left join "organizations" as "owner" on "owner"."id" = "tokens"."organization_id" left join "organizations" on "tokens"."kind" = +? and "organizations"."user_tokens_enabled" = +? inner join "credentials_version" on true where "tokens"."token_hash" = +?;

-- findTokenById: by id
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at" from "tokens" where "tokens"."id" = +?;

-- insertToken: a token
insert into "tokens" ("id", "kind", "organization_id", "team_id", "description", "created_at", "expired_at", "legacy", "created_by_kind", "created_by_id", "last_used_at", "token_hash") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listTeamTokens: every team
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +?) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? order by "tokens"."created_at" asc, "tokens"."id" asc limit ? offset ?;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +?) as "n";

-- listTeamTokens: by team name, descending
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? and "teams"."search_name" like ? escape '\') as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? and "teams"."search_name" like ? escape '\' order by "teams"."search_name" desc, "tokens"."id" desc limit ? offset ?;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? and "teams"."search_name" like ? escape '\') as "n";

-- listTeamTokens: one team
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? and "tokens"."team_id" = +?) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? and "tokens"."team_id" = +? order by "tokens"."last_used_at" asc, "tokens"."id" asc limit ? offset ?;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? and "tokens"."team_id" = +?) as "n";

-- listTeamTokens: by creator
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +?) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? order by "tokens"."created_by_id" asc, "tokens"."id" asc limit ? offset ?;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +?) as "n";

-- listTeamTokens: by expiry
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +?) as "matching_total" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +? order by "tokens"."expired_at" asc, "tokens"."id" asc limit ? offset ?;
select (select count(*) as "n" from "tokens" inner join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."kind" = +? and "tokens"."organization_id" = +?) as "n";

-- listTokens: every token
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", "organizations"."name" as "organization_name", "teams"."name" as "team_name" from "tokens" left join "organizations" on "organizations"."id" = "tokens"."organization_id" left join "teams" on "teams"."id" = "tokens"."team_id" order by "tokens"."created_at", "tokens"."id";

-- listTokens: an organization's
select "tokens"."id", "tokens"."kind", "tokens"."organization_id", "tokens"."team_id", "tokens"."description", "tokens"."created_at", "tokens"."expired_at", "tokens"."legacy", "tokens"."created_by_kind", "tokens"."created_by_id", "tokens"."last_used_at", "organizations"."name" as "organization_name", "teams"."name" as "team_name" from "tokens" left join "organizations" on "organizations"."id" = "tokens"."organization_id" left join "teams" on "teams"."id" = "tokens"."team_id" where "tokens"."organization_id" = +? order by "tokens"."created_at", "tokens"."id";

-- siteAdminTokenExists: any
select "id" from "tokens" where "kind" = +?;

-- teamTokenDescriptionTaken: taken
select "id" from "tokens" where "team_id" = +? and "legacy" = +? and "description" = +?;

-- tokenHashExists: by hash
select "id" from "tokens" where "token_hash" = +?;

-- touchToken: last used
update "tokens" set "last_used_at" = +? where "id" = +?;
