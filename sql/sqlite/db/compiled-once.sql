-- The SQL of src/db/compiled-once.ts on SQLite, written by npm run sql:snapshots.

-- boundOnce: a value, bound and sent by the caller
select "id" from "workspaces" where "organization_id" = +?;

-- compiledOnce: a value and a list
select "id" from "workspaces" where "organization_id" = +? and "id" in (?, ?);
