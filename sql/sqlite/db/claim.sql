-- The SQL of src/db/claim.ts on SQLite, written by npm run sql:snapshots.

-- skippingLockedRows: a claim
select "id" from "varset_notification_deliveries";
