-- The SQL of src/db/order.ts on PostgreSQL, written by npm run sql:snapshots.

-- byCodePoint: a column
select "name" from "organizations" order by "name" collate "C";

-- isPostgres: a handle (builds no statement)
-- (no statement)
