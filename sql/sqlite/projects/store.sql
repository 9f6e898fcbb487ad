-- The SQL of src/projects/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteProject: by id
delete from "projects" where "id" = +?;

-- findProjectWithOrganization: by id
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at", "organization_versions"."version" as "organization_version" from "projects" inner join "organizations" on "organizations"."id" = "projects"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "projects"."organization_id" where "projects"."id" = +?;

-- findProjects: of an organization
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at" from "projects" where "organization_id" = +? and "id" in (?, ?) order by "id";

-- findProjectsById: two ids
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at" from "projects" where "id" in (?, ?);

-- followExecutionMode: an organization's new mode
update "projects" set "default_execution_mode" = +? where "organization_id" = +? and "execution_mode_overwritten" = +? and "default_execution_mode" != ?;

-- hasWorkspaces: by id
select "id" from "workspaces" where "project_id" = +? limit ?;

-- insertProject: a project
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at", "organization_versions"."version" as "organization_version" from "projects" inner join "organizations" on "organizations"."id" = "projects"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "projects"."organization_id" where "projects"."id" = +?;
insert into "projects" ("id", "organization_id", "name", "description", "is_default", "auto_destroy_activity_duration", "default_execution_mode", "execution_mode_overwritten", "created_at", "search_name") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listProjects: every
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", (select count(*) as "n" from "projects" where "organization_id" = +?) as "matching_total" from "projects" where "organization_id" = +? order by "name" asc, "id" asc limit ? offset ?;
select (select count(*) as "n" from "projects" where "organization_id" = +?) as "n";

-- listProjects: search, names, tagged, visible and within
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", (select count(*) as "n" from "projects" where "organization_id" = +? and "search_name" like ? escape '\' and "name" in (?) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = +?) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = +? and "tag_bindings"."value" = +?) and "id" in (?, ?) and "id" in (?, ?)) as "matching_total" from "projects" where "organization_id" = +? and "search_name" like ? escape '\' and "name" in (?) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = +?) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = +? and "tag_bindings"."value" = +?) and "id" in (?, ?) and "id" in (?, ?) order by "name" desc, "id" desc limit ? offset ?;
select (select count(*) as "n" from "projects" where "organization_id" = +? and "search_name" like ? escape '\' and "name" in (?) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = +?) and exists (select "tag_bindings"."id" from "tag_bindings" where "tag_bindings"."project_id" = "projects"."id" and "tag_bindings"."key" = +? and "tag_bindings"."value" = +?) and "id" in (?, ?) and "id" in (?, ?)) as "n";

-- listProjects: newest
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", (select count(*) as "n" from "projects" where "organization_id" = +?) as "matching_total" from "projects" where "organization_id" = +? order by "created_at" desc, "id" desc limit ? offset ?;
select (select count(*) as "n" from "projects" where "organization_id" = +?) as "n";

-- projectNameTaken: a name
select "id" from "projects" where "organization_id" = +? and "name" = +?;

-- updateProject: a project
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "organizations"."name" as "organization_name", "organizations"."email" as "organization_email", "organizations"."created_at" as "organization_created_at", "organization_versions"."version" as "organization_version" from "projects" inner join "organizations" on "organizations"."id" = "projects"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "projects"."organization_id" where "projects"."id" = +?;
update "projects" set "name" = +?, "search_name" = +?, "description" = +?, "auto_destroy_activity_duration" = +?, "default_execution_mode" = +?, "execution_mode_overwritten" = +? where "id" = +?;
