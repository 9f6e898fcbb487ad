-- The SQL of src/tag-bindings/store.ts on SQLite, written by npm run sql:snapshots.

-- bindingsOf: a workspace's
select "id", "key", "value" from "tag_bindings" where "workspace_id" = +? order by "position";

-- bindingsOfMany: projects'
select "id", "key", "value", "project_id" from "tag_bindings" where "project_id" in (?, ?) order by "position";

-- deleteBindings: every
delete from "tag_bindings" where "project_id" = +?;

-- deleteBindings: some keys
delete from "tag_bindings" where "workspace_id" = +? and "key" in (?, ?);

-- insertBindings: two bindings
insert into "tag_bindings" ("id", "key", "value", "position", "created_at", "organization_id", "workspace_id", "project_id") values (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?);

-- updateValues: two values
update "tag_bindings" set "value" = case when "id" = +? then ? when "id" = +? then ? else "value" end where "id" in (?, ?);
