-- The SQL of src/varsets/assignment-store.ts on PostgreSQL, written by npm run sql:snapshots.

-- addAssignments: workspaces
insert into "varset_workspaces" ("varset_id", "workspace_id") values ($1, $2) on conflict do nothing;

-- addAssignments: projects
insert into "varset_projects" ("varset_id", "project_id") values ($1, $2) on conflict do nothing;

-- findAssignments: a set
select "workspaces"."id", "workspaces"."project_id" from "varset_workspaces" inner join "workspaces" on "workspaces"."id" = "varset_workspaces"."workspace_id" where "varset_workspaces"."varset_id" = $1;
select "project_id" from "varset_projects" where "varset_id" = $1;

-- findProjectsById: two ids
select "id", "organization_id" from "projects" where "id" in ($1, $2);

-- findWorkspacesById: two ids
select "id", "organization_id", "project_id" from "workspaces" where "id" in ($1, $2);

-- projectsOfSets: two sets
select "projects"."id", "projects"."organization_id", "projects"."name", "projects"."description", "projects"."is_default", "projects"."auto_destroy_activity_duration", "projects"."default_execution_mode", "projects"."execution_mode_overwritten", "projects"."created_at", "varset_projects"."varset_id" from "varset_projects" inner join "projects" on "projects"."id" = "varset_projects"."project_id" where "varset_projects"."varset_id" in ($1, $2) order by "varset_projects"."project_id" collate "C";

-- removeAssignments: some workspaces
delete from "varset_workspaces" where "varset_id" = $1 and "workspace_id" in ($2);

-- removeAssignments: every project
delete from "varset_projects" where "varset_id" = $1;

-- workspacesOfSets: two sets
select "workspaces"."id", "workspaces"."organization_id", "workspaces"."project_id", "workspaces"."name", "workspaces"."description", "workspaces"."created_at", "workspaces"."updated_at", "varset_workspaces"."varset_id" from "varset_workspaces" inner join "workspaces" on "workspaces"."id" = "varset_workspaces"."workspace_id" where "varset_workspaces"."varset_id" in ($1, $2) order by "varset_workspaces"."workspace_id" collate "C";
