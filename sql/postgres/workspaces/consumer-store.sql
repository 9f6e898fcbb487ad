-- The SQL of src/workspaces/consumer-store.ts on PostgreSQL, written by npm run sql:snapshots.

-- addConsumers: two workspaces
select "consumer_id" from "remote_state_consumers" where "workspace_id" = $1;
insert into "remote_state_consumers" ("workspace_id", "consumer_id") values ($1, $2), ($3, $4);

-- consumerIds: a workspace
select "consumer_id" from "remote_state_consumers" where "workspace_id" = $1;

-- removeConsumers: some
delete from "remote_state_consumers" where "workspace_id" = $1 and "consumer_id" in ($2, $3);

-- removeConsumers: every
delete from "remote_state_consumers" where "workspace_id" = $1;
