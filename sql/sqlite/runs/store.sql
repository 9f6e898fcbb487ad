-- The SQL of src/runs/store.ts on SQLite, written by npm run sql:snapshots.

-- findRun: by id
select "runs"."id", "runs"."workspace_id", "runs"."configuration_version_id", "runs"."status", "runs"."message", "runs"."is_destroy", "runs"."plan_only", "runs"."variables", "runs"."created_at", "runs"."created_by_token_id", "runs"."planning_at", "runs"."finished_at", "workspaces"."organization_id", "workspaces"."project_id" from "runs" inner join "workspaces" on "workspaces"."id" = "runs"."workspace_id" where "runs"."id" = +?;

-- findRunEventIds: two runs
select "run_id", "id" from "run_events" where "run_id" in (?, ?) order by "seq";

-- insertRun: a run
insert into "runs" ("id", "workspace_id", "configuration_version_id", "status", "message", "is_destroy", "plan_only", "variables", "created_at", "created_by_token_id", "planning_at", "finished_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- insertRunEvent: an event
insert into "run_events" ("id", "run_id", "action", "description", "actor_kind", "actor_id", "created_at") values (?, ?, ?, ?, ?, ?, ?);

-- listRuns: a page
select "runs"."id", "runs"."workspace_id", "runs"."configuration_version_id", "runs"."status", "runs"."message", "runs"."is_destroy", "runs"."plan_only", "runs"."variables", "runs"."created_at", "runs"."created_by_token_id", "runs"."planning_at", "runs"."finished_at", (select count(*) as "n" from "runs" where "workspace_id" = +? and 1 = 1) as "matching_total" from "runs" where "workspace_id" = +? and 1 = 1 order by "seq" desc limit ? offset ?;
select (select count(*) as "n" from "runs" where "workspace_id" = +? and 1 = 1) as "n";

-- listRuns: every filter
select "runs"."id", "runs"."workspace_id", "runs"."configuration_version_id", "runs"."status", "runs"."message", "runs"."is_destroy", "runs"."plan_only", "runs"."variables", "runs"."created_at", "runs"."created_by_token_id", "runs"."planning_at", "runs"."finished_at", (select count(*) as "n" from "runs" where "workspace_id" = +? and ("runs"."status" in (?, ?) and "runs"."status" in (?, ?) and (("runs"."is_destroy" = +? and "runs"."plan_only" = +?) or "runs"."is_destroy" = +?) and ("runs"."id" = +? or replace("runs"."message", ?, '') <> "runs"."message"))) as "matching_total" from "runs" where "workspace_id" = +? and ("runs"."status" in (?, ?) and "runs"."status" in (?, ?) and (("runs"."is_destroy" = +? and "runs"."plan_only" = +?) or "runs"."is_destroy" = +?) and ("runs"."id" = +? or replace("runs"."message", ?, '') <> "runs"."message")) order by "seq" desc limit ? offset ?;
select (select count(*) as "n" from "runs" where "workspace_id" = +? and ("runs"."status" in (?, ?) and "runs"."status" in (?, ?) and (("runs"."is_destroy" = +? and "runs"."plan_only" = +?) or "runs"."is_destroy" = +?) and ("runs"."id" = +? or replace("runs"."message", ?, '') <> "runs"."message"))) as "n";

-- updateRunStatus: to planning
update "runs" set "status" = +?, "planning_at" = +? where "id" = +? and "status" in (?);
