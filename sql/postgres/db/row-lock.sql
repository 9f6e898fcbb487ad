-- The SQL of src/db/row-lock.ts on PostgreSQL, written by npm run sql:snapshots.

-- lockConfigurationVersionRow: share
select id from configuration_versions where id = $1 for share;

-- lockConfigurationVersionRow: update
select id from configuration_versions where id = $1 for update;
