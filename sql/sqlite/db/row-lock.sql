-- The SQL of src/db/row-lock.ts on SQLite, written by npm run sql:snapshots.

-- lockConfigurationVersionRow: share
-- (no statement)

-- lockConfigurationVersionRow: update
-- (no statement)
