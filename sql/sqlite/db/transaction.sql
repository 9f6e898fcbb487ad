-- The SQL of src/db/transaction.ts on SQLite, written by npm run sql:snapshots.

-- transaction: a read
select "id" from "organizations";

-- withOrganizationLocked: by id
-- (no statement)

-- withOrganizationLocked: by a set's id
-- (no statement)
