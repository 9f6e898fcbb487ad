-- The SQL of src/variables/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteVariable: a set's
delete from "varset_variables" where "varset_id" = +? and "id" = +? returning "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at";

-- deleteVariable: a workspace's
delete from "workspace_variables" where "workspace_id" = +? and "id" = +? returning "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at";

-- deleteVariables: a set's
delete from "varset_variables" where "varset_id" = +? and "id" in (?, ?);

-- deleteVariables: a workspace's
delete from "workspace_variables" where "workspace_id" = +? and "id" in (?);

-- findVariable: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "varset_variables" where "varset_id" = +? and "id" = +?;

-- findVariable: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "workspace_variables" where "workspace_id" = +? and "id" = +?;

-- findVariablesByKey: a set's
select "id", "key", "category" from "varset_variables" where "varset_id" = +? and "key" in (?, ?);

-- findVariablesByKey: a workspace's
select "id", "key", "category" from "workspace_variables" where "workspace_id" = +? and "key" in (?);

-- insertVariables: a set's
insert into "varset_variables" ("id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "varset_id", "global_organization_id") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- insertVariables: a global set's
insert into "varset_variables" ("id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "varset_id", "global_organization_id") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- insertVariables: a workspace's
insert into "workspace_variables" ("id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "workspace_id") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listVariableKeys: a set's
select "key", "category" from "varset_variables" where "varset_id" = +?;

-- listVariableKeys: a workspace's
select "key", "category" from "workspace_variables" where "workspace_id" = +?;

-- listVariables: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "varset_variables" where "varset_id" = +? order by "key", "category", "id";

-- listVariables: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "workspace_variables" where "workspace_id" = +? order by "key", "category", "id";

-- pageOfVariables: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", (select count(*) as "n" from "varset_variables" where "varset_id" = +?) as "matching_total" from "varset_variables" where "varset_id" = +? order by "key", "category", "id" limit ? offset ?;
select (select count(*) as "n" from "varset_variables" where "varset_id" = +?) as "n";

-- pageOfVariables: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", (select count(*) as "n" from "workspace_variables" where "workspace_id" = +?) as "matching_total" from "workspace_variables" where "workspace_id" = +? order by "key", "category", "id" limit ? offset ?;
select (select count(*) as "n" from "workspace_variables" where "workspace_id" = +?) as "n";

-- updateVariable: a set's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "varset_variables" where "varset_id" = +? and "id" = +?;
update "varset_variables" set "key" = +?, "value" = +?, "description" = +?, "category" = +?, "hcl" = +?, "sensitive" = +?, "value_needed" = +?, "version_id" = +? where "varset_id" = +? and "id" = +?;

-- updateVariable: a workspace's
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at" from "workspace_variables" where "workspace_id" = +? and "id" = +?;
update "workspace_variables" set "key" = +?, "value" = +?, "description" = +?, "category" = +?, "hcl" = +?, "sensitive" = +?, "value_needed" = +?, "version_id" = +? where "workspace_id" = +? and "id" = +?;

-- variablesOfSets: two sets
select "id", "key", "value", "description", "category", "hcl", "sensitive", "value_needed", "version_id", "created_at", "varset_id" from "varset_variables" where "varset_id" in (?, ?) order by "key", "category", "id";
