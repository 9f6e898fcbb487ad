-- The SQL of src/db/transaction.ts on PostgreSQL, written by npm run sql:snapshots.

-- transaction: a read
select "id" from "organizations";

-- withOrganizationLocked: by id
select id from organizations where id = $1 for update;

-- withOrganizationLocked: by a set's id
select id from organizations where id = (select organization_id from varsets where id = $1) for update;
