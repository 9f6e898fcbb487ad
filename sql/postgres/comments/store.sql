-- The SQL of src/comments/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- findComment: by id
select "comments"."id", "comments"."run_id", "comments"."run_event_id", "comments"."body", "comments"."created_at", "runs"."workspace_id", "workspaces"."organization_id", "workspaces"."project_id" from "comments" inner join "runs" on "runs"."id" = "comments"."run_id" inner join "workspaces" on "workspaces"."id" = "runs"."workspace_id" where "comments"."id" = $1;

-- insertComment: a comment
insert into "comments" ("id", "run_id", "run_event_id", "body", "created_at") values ($1, $2, $3, $4, $5);

-- listComments: a page
select "comments"."id", "comments"."run_id", "comments"."run_event_id", "comments"."body", "comments"."created_at", (select count(*) as "n" from "comments" where "run_id" = $1) as "matching_total" from "comments" where "run_id" = $2 order by "seq" limit $3 offset $4;
select (select count(*) as "n" from "comments" where "run_id" = $1) as "n";
