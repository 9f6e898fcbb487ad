-- The SQL of src/comments/store.ts on SQLite, written by npm run sql:snapshots.

-- findComment: by id
select "comments"."id", "comments"."run_id", "comments"."run_event_id", "comments"."body", "comments"."created_at", "runs"."workspace_id", "workspaces"."organization_id", "workspaces"."project_id" from "comments" inner join "runs" on "runs"."id" = "comments"."run_id" inner join "workspaces" on "workspaces"."id" = "runs"."workspace_id" where "comments"."id" = +?;

-- insertComment: a comment
insert into "comments" ("id", "run_id", "run_event_id", "body", "created_at") values (?, ?, ?, ?, ?);

-- listComments: a page
select "comments"."id", "comments"."run_id", "comments"."run_event_id", "comments"."body", "comments"."created_at", (select count(*) as "n" from "comments" where "run_id" = +?) as "matching_total" from "comments" where "run_id" = +? order by "seq" limit ? offset ?;
select (select count(*) as "n" from "comments" where "run_id" = +?) as "n";
