-- The SQL of src/teams/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteTeam: by id
delete from "teams" where "id" = $1;

-- findTeamWithOrganization: by id
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at" from "teams" inner join "organizations" on "organizations"."id" = "teams"."organization_id" where "teams"."id" = $1;

-- insertTeam: a team
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at" from "teams" inner join "organizations" on "organizations"."id" = "teams"."organization_id" where "teams"."id" = $1;
insert into "teams" ("id", "organization_id", "name", "is_owners", "visibility", "sso_team_id", "allow_member_token_management", "created_at", "search_name", "manage_workspaces", "manage_projects", "read_workspaces", "read_projects", "other_access") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14);

-- listTeams: every
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", (select count(*) as "n" from "teams" where "organization_id" = $1) as "matching_total" from "teams" where "organization_id" = $2 order by "name", "id" limit $3 offset $4;
select (select count(*) as "n" from "teams" where "organization_id" = $1) as "n";

-- listTeams: search, names and a scope
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", (select count(*) as "n" from "teams" where "organization_id" = $1 and "search_name" like $2 escape '\' and "name" in ($3, $4) and ("visibility" = $5 or "id" = $6)) as "matching_total" from "teams" where "organization_id" = $7 and "search_name" like $8 escape '\' and "name" in ($9, $10) and ("visibility" = $11 or "id" = $12) order by "name", "id" limit $13 offset $14;
select (select count(*) as "n" from "teams" where "organization_id" = $1 and "search_name" like $2 escape '\' and "name" in ($3, $4) and ("visibility" = $5 or "id" = $6)) as "n";

-- listTeams: no names
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", (select count(*) as "n" from "teams" where "organization_id" = $1 and "name" in ($2)) as "matching_total" from "teams" where "organization_id" = $3 and "name" in ($4) order by "name", "id" limit $5 offset $6;
select (select count(*) as "n" from "teams" where "organization_id" = $1 and "name" in ($2)) as "n";

-- teamNameTaken: a name
select "id" from "teams" where "organization_id" = $1 and "name" = $2;

-- updateTeam: a team
select "teams"."id", "teams"."organization_id", "teams"."name", "teams"."is_owners", "teams"."visibility", "teams"."sso_team_id", "teams"."allow_member_token_management", "teams"."manage_workspaces", "teams"."manage_projects", "teams"."read_workspaces", "teams"."read_projects", "teams"."other_access", "teams"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at" from "teams" inner join "organizations" on "organizations"."id" = "teams"."organization_id" where "teams"."id" = $1;
update "teams" set "name" = $1, "search_name" = $2, "visibility" = $3, "sso_team_id" = $4, "allow_member_token_management" = $5, "manage_workspaces" = $6, "manage_projects" = $7, "read_workspaces" = $8, "read_projects" = $9, "other_access" = $10 where "id" = $11;
