-- The SQL of src/tag-bindings/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- bindingsOf: a workspace's
select "id", "key", "value" from "tag_bindings" where "workspace_id" = $1 order by "position";

-- bindingsOfMany: projects'
select "id", "key", "value", "project_id" from "tag_bindings" where "project_id" in ($1, $2) order by "position";

-- deleteBindings: every
delete from "tag_bindings" where "project_id" = $1;

-- deleteBindings: some keys
delete from "tag_bindings" where "workspace_id" = $1 and "key" in ($2, $3);

-- insertBindings: two bindings
insert into "tag_bindings" ("id", "key", "value", "position", "created_at", "organization_id", "workspace_id", "project_id") values ($1, $2, $3, $4, $5, $6, $7, $8), ($9, $10, $11, $12, $13, $14, $15, $16);

-- updateValues: two values
update "tag_bindings" set "value" = case when "id" = $1 then $2 when "id" = $3 then $4 else "value" end where "id" in ($5, $6);
