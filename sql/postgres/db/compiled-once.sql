-- The SQL of src/db/compiled-once.ts on PostgreSQL, written by npm run sql:snapshots.

-- boundOnce: a value, bound and sent by the caller
select "id" from "workspaces" where "organization_id" = $1;

-- compiledOnce: a value and a list
select "id" from "workspaces" where "organization_id" = $1 and "id" in ($2, $3);
