-- The SQL of src/effective/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- findRunEffectiveVariables: a run
select * from "run_effective_values" where "run_id" = $1 order by "position", "rank";

-- findRunWorkspace: a run
select "runs"."id" as "run_id", "workspaces"."id", "workspaces"."organization_id", "workspaces"."project_id" from "runs" inner join "workspaces" on "workspaces"."id" = "runs"."workspace_id" where "runs"."id" = $1;

-- insertRunEffectiveVariables: a value and the one it overrides
insert into "run_effective_values" ("id", "run_id", "position", "rank", "key", "category", "precedence", "source", "varset_id", "varset_name", "varset_scope", "varset_owner", "varset_priority", "varset_version", "variable_id", "version_id", "value", "description", "hcl", "sensitive") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20), ($21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40);
