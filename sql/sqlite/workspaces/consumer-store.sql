-- The SQL of src/workspaces/consumer-store.ts on SQLite, written by npm run sql:snapshots.

-- addConsumers: two workspaces
select "consumer_id" from "remote_state_consumers" where "workspace_id" = +?;
insert into "remote_state_consumers" ("workspace_id", "consumer_id") values (?, ?), (?, ?);

-- consumerIds: a workspace
select "consumer_id" from "remote_state_consumers" where "workspace_id" = +?;

-- removeConsumers: some
delete from "remote_state_consumers" where "workspace_id" = +? and "consumer_id" in (?, ?);

-- removeConsumers: every
delete from "remote_state_consumers" where "workspace_id" = +?;
