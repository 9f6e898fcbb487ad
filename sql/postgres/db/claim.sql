-- The SQL of src/db/claim.ts on PostgreSQL, written by npm run sql:snapshots.

-- skippingLockedRows: a claim
select "id" from "varset_notification_deliveries" for update skip locked;
