-- The SQL of src/runs/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- findRun: by id
select "runs"."id", "runs"."workspace_id", "runs"."configuration_version_id", "runs"."status", "runs"."message", "runs"."is_destroy", "runs"."plan_only", "runs"."variables", "runs"."created_at", "runs"."created_by_token_id", "runs"."planning_at", "runs"."finished_at", "workspaces"."organization_id", "workspaces"."project_id" from "runs" inner join "workspaces" on "workspaces"."id" = "runs"."workspace_id" where "runs"."id" = $1;

-- findRunEventIds: two runs
select "run_id", "id" from "run_events" where "run_id" in ($1, $2) order by "seq";

-- insertRun: a run
insert into "runs" ("id", "workspace_id", "configuration_version_id", "status", "message", "is_destroy", "plan_only", "variables", "created_at", "created_by_token_id", "planning_at", "finished_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- insertRunEvent: an event
insert into "run_events" ("id", "run_id", "action", "description", "actor_kind", "actor_id", "created_at") values ($1, $2, $3, $4, $5, $6, $7);

-- listRuns: a page
select "runs"."id", "runs"."workspace_id", "runs"."configuration_version_id", "runs"."status", "runs"."message", "runs"."is_destroy", "runs"."plan_only", "runs"."variables", "runs"."created_at", "runs"."created_by_token_id", "runs"."planning_at", "runs"."finished_at", (select count(*) as "n" from "runs" where "workspace_id" = $1 and 1 = 1) as "matching_total" from "runs" where "workspace_id" = $2 and 1 = 1 order by "seq" desc limit $3 offset $4;
select (select count(*) as "n" from "runs" where "workspace_id" = $1 and 1 = 1) as "n";

-- listRuns: every filter
select "runs"."id", "runs"."workspace_id", "runs"."configuration_version_id", "runs"."status", "runs"."message", "runs"."is_destroy", "runs"."plan_only", "runs"."variables", "runs"."created_at", "runs"."created_by_token_id", "runs"."planning_at", "runs"."finished_at", (select count(*) as "n" from "runs" where "workspace_id" = $1 and ("runs"."status" in ($2, $3) and "runs"."status" in ($4, $5) and (("runs"."is_destroy" = $6 and "runs"."plan_only" = $7) or "runs"."is_destroy" = $8) and ("runs"."id" = $9 or replace("runs"."message", $10, '') <> "runs"."message"))) as "matching_total" from "runs" where "workspace_id" = $11 and ("runs"."status" in ($12, $13) and "runs"."status" in ($14, $15) and (("runs"."is_destroy" = $16 and "runs"."plan_only" = $17) or "runs"."is_destroy" = $18) and ("runs"."id" = $19 or replace("runs"."message", $20, '') <> "runs"."message")) order by "seq" desc limit $21 offset $22;
select (select count(*) as "n" from "runs" where "workspace_id" = $1 and ("runs"."status" in ($2, $3) and "runs"."status" in ($4, $5) and (("runs"."is_destroy" = $6 and "runs"."plan_only" = $7) or "runs"."is_destroy" = $8) and ("runs"."id" = $9 or replace("runs"."message", $10, '') <> "runs"."message"))) as "n";

-- updateRunStatus: to planning
update "runs" set "status" = $1, "planning_at" = $2 where "id" = $3 and "status" in ($4);
