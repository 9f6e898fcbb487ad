-- The SQL of src/projects/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteProject: by id
delete from "projects" where "id" = $1;

-- findProjectWithOrganization: by id
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at", "organization_versions"."version" as "organization_version" from "projects" inner join "organizations" on "organizations"."id" = "projects"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "projects"."organization_id" where "projects"."id" = $1;

-- findProjects: of an organization
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at" from "projects" where "organization_id" = $1 and "id" in ($2, $3) order by "id";

-- findProjectsById: two ids
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at" from "projects" where "id" in ($1, $2);

-- followExecutionMode: an organization's new mode
update "projects" set "default_execution_mode" = $1 where "organization_id" = $2 and "execution_mode_overwritten" = $3 and "default_execution_mode" != $4;

-- hasWorkspaces: by id
select "id" from "workspaces" where "project_id" = $1 limit $2;

-- insertProject: a project
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at", "organization_versions"."version" as "organization_version" from "projects" inner join "organizations" on "organizations"."id" = "projects"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "projects"."organization_id" where "projects"."id" = $1;
insert into "projects" ("id", "organization_id", "name", "description", "is_default", "auto_destroy_activity_duration", "default_execution_mode", "execution_mode_overwritten", "created_at", "search_name") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- listProjects: every
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", (select count(*) as "n" from "projects" where "organization_id" = $1) as "matching_total" from "projects" where "organization_id" = $2 order by "name" collate "C" asc, "id" asc limit $3 offset $4;
select (select count(*) as "n" from "projects" where "organization_id" = $1) as "n";

-- listProjects: search, names, tagged, visible and within
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", (select count(*) as "n" from "projects" where "organization_id" = $1 and "search_name" like $2 escape '\' and "name" in ($3) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = $4) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = $5 and "tag_bindings"."value" = $6) and "id" in ($7, $8) and "id" in ($9, $10)) as "matching_total" from "projects" where "organization_id" = $11 and "search_name" like $12 escape '\' and "name" in ($13) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = $14) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = $15 and "tag_bindings"."value" = $16) and "id" in ($17, $18) and "id" in ($19, $20) order by "name" collate "C" desc, "id" desc limit $21 offset $22;
select (select count(*) as "n" from "projects" where "organization_id" = $1 and "search_name" like $2 escape '\' and "name" in ($3) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = $4) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = $5 and "tag_bindings"."value" = $6) and "id" in ($7, $8) and "id" in ($9, $10)) as "n";

-- listProjects: newest
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", (select count(*) as "n" from "projects" where "organization_id" = $1) as "matching_total" from "projects" where "organization_id" = $2 order by "created_at" desc, "id" desc limit $3 offset $4;
select (select count(*) as "n" from "projects" where "organization_id" = $1) as "n";

-- projectNameTaken: a name
select "id" from "projects" where "organization_id" = $1 and "name" = $2;

-- updateProject: a project
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at", "organization_versions"."version" as "organization_version" from "projects" inner join "organizations" on "organizations"."id" = "projects"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "projects"."organization_id" where "projects"."id" = $1;
update "projects" set "name" = $1, "search_name" = $2, "description" = $3, "auto_destroy_activity_duration" = $4, "default_execution_mode" = $5, "execution_mode_overwritten" = $6 where "id" = $7;
