-- The SQL of src/db/order.ts on SQLite, written by npm run sql:snapshots.

-- byCodePoint: a column
select "name" from "organizations" order by "name";

-- isPostgres: a handle (builds no statement)
-- (no statement)
