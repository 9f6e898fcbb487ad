-- The SQL of src/varsets/assignment-store.ts on SQLite, written by npm run sql:snapshots.

-- addAssignments: workspaces
insert into "varset_workspaces" ("varset_id", "workspace_id") values (?, ?) on conflict do nothing;

-- addAssignments: projects
insert into "varset_projects" ("varset_id", "project_id") values (?, ?) on conflict do nothing;

-- findAssignments: a set
select "workspaces"."id", "workspaces"."project_id" from "varset_workspaces" inner join "workspaces" on "workspaces"."id" = "varset_workspaces"."workspace_id" where "varset_workspaces"."varset_id" = +?;
select "project_id" from "varset_projects" where "varset_id" = +?;

-- findProjectsById: two ids
select "id", "organization_id" from "projects" where "id" in (?, ?);

-- findWorkspacesById: two ids
select "id", "organization_id", "project_id" from "workspaces" where "id" in (?, ?);

-- projectsOfSets: two sets
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "varset_projects"."varset_id" from "varset_projects" inner join "projects" on "projects"."id" = "varset_projects"."project_id" where "varset_projects"."varset_id" in (?, ?) order by "varset_projects"."project_id";

-- removeAssignments: some workspaces
delete from "varset_workspaces" where "varset_id" = +? and "workspace_id" in (?);

-- removeAssignments: every project
delete from "varset_projects" where "varset_id" = +?;

-- workspacesOfSets: two sets
select "workspaces"."id", "workspaces"."organization_id", "workspaces"."project_id", "workspaces"."name", "workspaces"."description", "workspaces"."created_at", "workspaces"."updated_at", "varset_workspaces"."varset_id" from "varset_workspaces" inner join "workspaces" on "workspaces"."id" = "varset_workspaces"."workspace_id" where "varset_workspaces"."varset_id" in (?, ?) order by "varset_workspaces"."workspace_id";
