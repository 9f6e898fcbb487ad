-- The SQL of src/effective/store.ts on SQLite, written by npm run sql:snapshots.

-- findRunEffectiveVariables: a run
select * from "run_effective_values" where "run_id" = +? order by "position", "rank";

-- findRunWorkspace: a run
select "runs"."id" as "run_id", "workspaces"."id", "workspaces"."organization_id", "workspaces"."project_id" from "runs" inner join "workspaces" on "workspaces"."id" = "runs"."workspace_id" where "runs"."id" = +?;

-- insertRunEffectiveVariables: a value and the one it overrides
insert into "run_effective_values" ("id", "run_id", "position", "rank", "key", "category", "precedence", "source", "varset_id", "varset_name", "varset_scope", "varset_owner", "varset_priority", "varset_version", "variable_id", "version_id", "value", "description", "hcl", "sensitive") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
