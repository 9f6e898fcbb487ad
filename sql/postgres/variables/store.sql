-- The SQL of src/variables/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteVariable: a set's
delete from "varset_variables" where "varset_id" = $1 and "id" = $2 returning "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at";

-- deleteVariable: a workspace's
delete from "workspace_variables" where "workspace_id" = $1 and "id" = $2 returning "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at";

-- deleteVariables: a set's
delete from "varset_variables" where "varset_id" = $1 and "id" in ($2, $3);

-- deleteVariables: a workspace's
delete from "workspace_variables" where "workspace_id" = $1 and "id" in ($2);

-- findVariable: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "varset_variables" where "varset_id" = $1 and "id" = $2;

-- findVariable: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "workspace_variables" where "workspace_id" = $1 and "id" = $2;

-- findVariablesByKey: a set's
select "id", "key", "category" from "varset_variables" where "varset_id" = $1 and "key" in ($2, $3);

-- findVariablesByKey: a workspace's
select "id", "key", "category" from "workspace_variables" where "workspace_id" = $1 and "key" in ($2);

-- insertVariables: a set's
insert into "varset_variables" ("id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "varset_id", "global_organization_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- insertVariables: a global set's
insert into "varset_variables" ("id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "varset_id", "global_organization_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- insertVariables: a workspace's
insert into "workspace_variables" ("id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "workspace_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11), ($12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22);

-- listVariableKeys: a set's
select "key", "category" from "varset_variables" where "varset_id" = $1;

-- listVariableKeys: a workspace's
select "key", "category" from "workspace_variables" where "workspace_id" = $1;

-- listVariables: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "varset_variables" where "varset_id" = $1 order by "key" collate "C", "category", "id";

-- listVariables: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "workspace_variables" where "workspace_id" = $1 order by "key" collate "C", "category", "id";

-- pageOfVariables: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", (select count(*) as "n" from "varset_variables" where "varset_id" = $1) as "matching_total" from "varset_variables" where "varset_id" = $2 order by "key" collate "C", "category", "id" limit $3 offset $4;
select (select count(*) as "n" from "varset_variables" where "varset_id" = $1) as "n";

-- pageOfVariables: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", (select count(*) as "n" from "workspace_variables" where "workspace_id" = $1) as "matching_total" from "workspace_variables" where "workspace_id" = $2 order by "key" collate "C", "category", "id" limit $3 offset $4;
select (select count(*) as "n" from "workspace_variables" where "workspace_id" = $1) as "n";

-- updateVariable: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "varset_variables" where "varset_id" = $1 and "id" = $2;
update "varset_variables" set "key" = $1, "value" = $2, "description" = $3, "category" = $4, "hcl" = $5, "sensitive" = $6, "value_needed" = $7, "version_id" = $8 where "varset_id" = $9 and "id" = $10;

-- updateVariable: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "workspace_variables" where "workspace_id" = $1 and "id" = $2;
update "workspace_variables" set "key" = $1, "value" = $2, "description" = $3, "category" = $4, "hcl" = $5, "sensitive" = $6, "value_needed" = $7, "version_id" = $8 where "workspace_id" = $9 and "id" = $10;

-- variablesOfSets: two sets
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "varset_id" from "varset_variables" where "varset_id" in ($1, $2) order by "key" collate "C", "category", "id";
