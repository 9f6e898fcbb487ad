-- The SQL of src/run-events/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- findRunEvent: by id
select "run_events"."id", "run_events"."run_id", "run_events"."action", "run_events"."description", "run_events"."actor_kind", "run_events"."actor_id", "run_events"."created_at", "comments"."id" as "comment_id", "comments"."body" as "comment_body", "comments"."created_at" as "comment_created_at", "runs"."workspace_id", "workspaces"."organization_id", "workspaces"."project_id" from "run_events" left join "comments" on "comments"."run_event_id" = "run_events"."id" inner join "runs" on "runs"."id" = "run_events"."run_id" inner join "workspaces" on "workspaces"."id" = "runs"."workspace_id" where "run_events"."id" = $1;

-- listRunEvents: a page
select "run_events"."id", "run_events"."run_id", "run_events"."action", "run_events"."description", "run_events"."actor_kind", "run_events"."actor_id", "run_events"."created_at", "comments"."id" as "comment_id", "comments"."body" as "comment_body", "comments"."created_at" as "comment_created_at", (select count(*) as "n" from "run_events" where "run_id" = $1) as "matching_total" from "run_events" left join "comments" on "comments"."run_event_id" = "run_events"."id" where "run_events"."run_id" = $2 order by "run_events"."seq" limit $3 offset $4;
select (select count(*) as "n" from "run_events" where "run_id" = $1) as "n";
