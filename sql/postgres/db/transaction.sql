-- The SQL of src/db/transaction.ts on PostgreSQL, written by npm run sql:snapshots.

-- transaction: a read
select "id" from "organizations";

-- withOrganizationLocked: by id
select id from organizations where id = $1 for update;

-- withOrganizationLocked: by a read in the transaction
select "id" from "organizations" where "name" = $1;
select id from organizations where id = $1 for update;
