-- The SQL of src/team-access/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteTeamProject: by id
delete from "team_projects" where "id" = +?;

-- deleteTeamWorkspace: by id
delete from "team_workspaces" where "id" = +?;

-- findTeamProject: by id
select "team_projects"."id", "team_projects"."team_id", "team_projects"."project_id", "team_projects"."access", "team_projects"."settings", "team_projects"."teams", "team_projects"."variable_sets", "team_projects"."workspace_create", "team_projects"."workspace_move", "team_projects"."workspace_locking", "team_projects"."workspace_delete", "team_projects"."workspace_runs", "team_projects"."workspace_variables", "team_projects"."workspace_state_versions", "team_projects"."workspace_sentinel_mocks", "team_projects"."workspace_run_tasks", "team_projects"."workspace_policy_overrides", "team_projects"."created_at", "projects"."organization_id", "teams"."visibility" as "team_visibility" from "team_projects" inner join "projects" on "projects"."id" = "team_projects"."project_id" inner join "teams" on "teams"."id" = "team_projects"."team_id" where "team_projects"."id" = +?;

-- findTeamWorkspace: by id
select "team_workspaces"."id", "team_workspaces"."team_id", "team_workspaces"."workspace_id", "team_workspaces"."access", "team_workspaces"."runs", "team_workspaces"."variables", "team_workspaces"."state_versions", "team_workspaces"."sentinel_mocks", "team_workspaces"."workspace_locking", "team_workspaces"."run_tasks", "team_workspaces"."policy_overrides", "team_workspaces"."created_at", "workspaces"."organization_id", "workspaces"."project_id", "teams"."visibility" as "team_visibility" from "team_workspaces" inner join "workspaces" on "workspaces"."id" = "team_workspaces"."workspace_id" inner join "teams" on "teams"."id" = "team_workspaces"."team_id" where "team_workspaces"."id" = +?;

-- insertTeamProject: a grant
select "team_projects"."id", "team_projects"."team_id", "team_projects"."project_id", "team_projects"."access", "team_projects"."settings", "team_projects"."teams", "team_projects"."variable_sets", "team_projects"."workspace_create", "team_projects"."workspace_move", "team_projects"."workspace_locking", "team_projects"."workspace_delete", "team_projects"."workspace_runs", "team_projects"."workspace_variables", "team_projects"."workspace_state_versions", "team_projects"."workspace_sentinel_mocks", "team_projects"."workspace_run_tasks", "team_projects"."workspace_policy_overrides", "team_projects"."created_at", "projects"."organization_id", "teams"."visibility" as "team_visibility" from "team_projects" inner join "projects" on "projects"."id" = "team_projects"."project_id" inner join "teams" on "teams"."id" = "team_projects"."team_id" where "team_projects"."id" = +?;
insert into "team_projects" ("id", "team_id", "project_id", "access", "created_at", "settings", "teams", "variable_sets", "workspace_create", "workspace_move", "workspace_locking", "workspace_delete", "workspace_runs", "workspace_variables", "workspace_state_versions", "workspace_sentinel_mocks", "workspace_run_tasks", "workspace_policy_overrides") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- insertTeamWorkspace: a grant
select "team_workspaces"."id", "team_workspaces"."team_id", "team_workspaces"."workspace_id", "team_workspaces"."access", "team_workspaces"."runs", "team_workspaces"."variables", "team_workspaces"."state_versions", "team_workspaces"."sentinel_mocks", "team_workspaces"."workspace_locking", "team_workspaces"."run_tasks", "team_workspaces"."policy_overrides", "team_workspaces"."created_at", "workspaces"."organization_id", "workspaces"."project_id", "teams"."visibility" as "team_visibility" from "team_workspaces" inner join "workspaces" on "workspaces"."id" = "team_workspaces"."workspace_id" inner join "teams" on "teams"."id" = "team_workspaces"."team_id" where "team_workspaces"."id" = +?;
insert into "team_workspaces" ("id", "team_id", "workspace_id", "access", "created_at", "runs", "variables", "state_versions", "sentinel_mocks", "workspace_locking", "run_tasks", "policy_overrides") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listTeamProjects: every
select "team_projects"."id", "team_projects"."team_id", "team_projects"."project_id", "team_projects"."access", "team_projects"."settings", "team_projects"."teams", "team_projects"."variable_sets", "team_projects"."workspace_create", "team_projects"."workspace_move", "team_projects"."workspace_locking", "team_projects"."workspace_delete", "team_projects"."workspace_runs", "team_projects"."workspace_variables", "team_projects"."workspace_state_versions", "team_projects"."workspace_sentinel_mocks", "team_projects"."workspace_run_tasks", "team_projects"."workspace_policy_overrides", "team_projects"."created_at", (select count(*) as "n" from "team_projects") as "matching_total" from "team_projects" order by "created_at", "id" limit ? offset ?;
select (select count(*) as "n" from "team_projects") as "n";

-- listTeamProjects: a team and project, within a scope
select "team_projects"."id", "team_projects"."team_id", "team_projects"."project_id", "team_projects"."access", "team_projects"."settings", "team_projects"."teams", "team_projects"."variable_sets", "team_projects"."workspace_create", "team_projects"."workspace_move", "team_projects"."workspace_locking", "team_projects"."workspace_delete", "team_projects"."workspace_runs", "team_projects"."workspace_variables", "team_projects"."workspace_state_versions", "team_projects"."workspace_sentinel_mocks", "team_projects"."workspace_run_tasks", "team_projects"."workspace_policy_overrides", "team_projects"."created_at", (select count(*) as "n" from "team_projects" where "project_id" = +? and "team_id" = +? and "team_id" = +?) as "matching_total" from "team_projects" where "project_id" = +? and "team_id" = +? and "team_id" = +? order by "created_at", "id" limit ? offset ?;
select (select count(*) as "n" from "team_projects" where "project_id" = +? and "team_id" = +? and "team_id" = +?) as "n";

-- listTeamWorkspaces: every
select "team_workspaces"."id", "team_workspaces"."team_id", "team_workspaces"."workspace_id", "team_workspaces"."access", "team_workspaces"."runs", "team_workspaces"."variables", "team_workspaces"."state_versions", "team_workspaces"."sentinel_mocks", "team_workspaces"."workspace_locking", "team_workspaces"."run_tasks", "team_workspaces"."policy_overrides", "team_workspaces"."created_at", (select count(*) as "n" from "team_workspaces") as "matching_total" from "team_workspaces" order by "created_at", "id" limit ? offset ?;
select (select count(*) as "n" from "team_workspaces") as "n";

-- listTeamWorkspaces: a team and workspace, within a scope
select "team_workspaces"."id", "team_workspaces"."team_id", "team_workspaces"."workspace_id", "team_workspaces"."access", "team_workspaces"."runs", "team_workspaces"."variables", "team_workspaces"."state_versions", "team_workspaces"."sentinel_mocks", "team_workspaces"."workspace_locking", "team_workspaces"."run_tasks", "team_workspaces"."policy_overrides", "team_workspaces"."created_at", (select count(*) as "n" from "team_workspaces" where "workspace_id" = +? and "team_id" = +? and "team_id" = +?) as "matching_total" from "team_workspaces" where "workspace_id" = +? and "team_id" = +? and "team_id" = +? order by "created_at", "id" limit ? offset ?;
select (select count(*) as "n" from "team_workspaces" where "workspace_id" = +? and "team_id" = +? and "team_id" = +?) as "n";

-- teamHasProjectGrant: a grant
select "id" from "team_projects" where "team_id" = +? and "project_id" = +?;

-- teamHasWorkspaceGrant: a grant
select "id" from "team_workspaces" where "team_id" = +? and "workspace_id" = +?;

-- updateTeamProject: a grant
select "team_projects"."id", "team_projects"."team_id", "team_projects"."project_id", "team_projects"."access", "team_projects"."settings", "team_projects"."teams", "team_projects"."variable_sets", "team_projects"."workspace_create", "team_projects"."workspace_move", "team_projects"."workspace_locking", "team_projects"."workspace_delete", "team_projects"."workspace_runs", "team_projects"."workspace_variables", "team_projects"."workspace_state_versions", "team_projects"."workspace_sentinel_mocks", "team_projects"."workspace_run_tasks", "team_projects"."workspace_policy_overrides", "team_projects"."created_at", "projects"."organization_id", "teams"."visibility" as "team_visibility" from "team_projects" inner join "projects" on "projects"."id" = "team_projects"."project_id" inner join "teams" on "teams"."id" = "team_projects"."team_id" where "team_projects"."id" = +?;
update "team_projects" set "access" = +?, "settings" = +?, "teams" = +?, "variable_sets" = +?, "workspace_create" = +?, "workspace_move" = +?, "workspace_locking" = +?, "workspace_delete" = +?, "workspace_runs" = +?, "workspace_variables" = +?, "workspace_state_versions" = +?, "workspace_sentinel_mocks" = +?, "workspace_run_tasks" = +?, "workspace_policy_overrides" = +? where "id" = +?;

-- updateTeamWorkspace: a grant
select "team_workspaces"."id", "team_workspaces"."team_id", "team_workspaces"."workspace_id", "team_workspaces"."access", "team_workspaces"."runs", "team_workspaces"."variables", "team_workspaces"."state_versions", "team_workspaces"."sentinel_mocks", "team_workspaces"."workspace_locking", "team_workspaces"."run_tasks", "team_workspaces"."policy_overrides", "team_workspaces"."created_at", "workspaces"."organization_id", "workspaces"."project_id", "teams"."visibility" as "team_visibility" from "team_workspaces" inner join "workspaces" on "workspaces"."id" = "team_workspaces"."workspace_id" inner join "teams" on "teams"."id" = "team_workspaces"."team_id" where "team_workspaces"."id" = +?;
update "team_workspaces" set "access" = +?, "runs" = +?, "variables" = +?, "state_versions" = +?, "sentinel_mocks" = +?, "workspace_locking" = +?, "run_tasks" = +?, "policy_overrides" = +? where "id" = +?;
