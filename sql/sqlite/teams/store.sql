-- The SQL of src/teams/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteTeam: by id
delete from "teams" where "id" = +?;

-- findTeamWithOrganization: by id
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at" from "teams" inner join "organizations" on "organizations"."id" = "teams"."organization_id" where "teams"."id" = +?;

-- insertTeam: a team
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at" from "teams" inner join "organizations" on "organizations"."id" = "teams"."organization_id" where "teams"."id" = +?;
insert into "teams" ("id", "organization_id", "name", "is_owners", "visibility", "sso_team_id", "allow_member_token_management", "created_at", "search_name", "manage_workspaces", "manage_projects", "read_workspaces", "read_projects", "other_access") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listTeams: every
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", (select count(*) as "n" from "teams" where "organization_id" = +?) as "matching_total" from "teams" where "organization_id" = +? order by "name", "id" limit ? offset ?;
select (select count(*) as "n" from "teams" where "organization_id" = +?) as "n";

-- listTeams: search, names and a scope
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", (select count(*) as "n" from "teams" where "organization_id" = +? and "search_name" like ? escape '\' and "name" in (?, ?) and ("visibility" = +? or "id" = +?)) as "matching_total" from "teams" where "organization_id" = +? and "search_name" like ? escape '\' and "name" in (?, ?) and ("visibility" = +? or "id" = +?) order by "name", "id" limit ? offset ?;
select (select count(*) as "n" from "teams" where "organization_id" = +? and "search_name" like ? escape '\' and "name" in (?, ?) and ("visibility" = +? or "id" = +?)) as "n";

-- listTeams: no names
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", (select count(*) as "n" from "teams" where "organization_id" = +? and "name" in (?)) as "matching_total" from "teams" where "organization_id" = +? and "name" in (?) order by "name", "id" limit ? offset ?;
select (select count(*) as "n" from "teams" where "organization_id" = +? and "name" in (?)) as "n";

-- teamNameTaken: a name
select "id" from "teams" where "organization_id" = +? and "name" = +?;

-- updateTeam: a team
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at" from "teams" inner join "organizations" on "organizations"."id" = "teams"."organization_id" where "teams"."id" = +?;
update "teams" set "name" = +?, "search_name" = +?, "visibility" = +?, "sso_team_id" = +?, "allow_member_token_management" = +?, "manage_workspaces" = +?, "manage_projects" = +?, "read_workspaces" = +?, "read_projects" = +?, "other_access" = +? where "id" = +?;
