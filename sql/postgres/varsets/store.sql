-- The SQL of src/varsets/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteVarset: by id
delete from "varsets" where "id" = $1;

-- findGlobalVariablesByKey: two keys
select "varset_variables"."key", "varset_variables"."category", "varsets"."name" as "varset_name" from "varset_variables" inner join "varsets" on "varsets"."id" = "varset_variables"."varset_id" where "varset_variables"."global_organization_id" = $1 and "varset_variables"."varset_id" <> $2 and "varset_variables"."key" in ($3, $4);

-- findVarsetAtVersion: with its variables
select "varsets"."id", "varsets"."organization_id", "organizations"."name" as "organization_name", "varsets"."project_id", "varsets"."name", "varsets"."description", "varsets"."global", "varsets"."priority", "varsets"."created_at", "varsets"."updated_at", case when "organization_versions"."version" = $1 then null else (select coalesce(json_agg("varset_workspaces"."workspace_id" order by "varset_workspaces"."workspace_id" collate "C"), '[]'::json) as "ids" from "varset_workspaces" where "varset_workspaces"."varset_id" = "varsets"."id") end as "workspace_ids", case when "organization_versions"."version" = $2 then null else (select coalesce(json_agg("varset_projects"."project_id" order by "varset_projects"."project_id" collate "C"), '[]'::json) as "ids" from "varset_projects" where "varset_projects"."varset_id" = "varsets"."id") end as "project_ids", case when "organization_versions"."version" = $3 then null else (select coalesce(json_agg(json_build_object('id', "varset_variables"."id", 'key', "varset_variables"."key", 'value', "varset_variables"."value", 'description', "varset_variables"."description", 'category', "varset_variables"."category", 'hcl', "varset_variables"."hcl", 'sensitive', "varset_variables"."sensitive", 'value_needed', "varset_variables"."value_needed", 'version_id', "varset_variables"."version_id", 'created_at', "varset_variables"."created_at") order by "varset_variables"."key" collate "C", "varset_variables"."category", "varset_variables"."id"), '[]'::json) as "variables" from "varset_variables" where "varset_variables"."varset_id" = "varsets"."id") end as "variables", "organization_versions"."version" as "organization_version", "credentials_version"."version" as "credentials_version" from "varsets" inner join "organizations" on "organizations"."id" = "varsets"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "varsets"."organization_id" inner join "credentials_version" on true where "varsets"."id" = $4;

-- findVarsetAtVersion: unless at a version
select "varsets"."id", "varsets"."organization_id", "organizations"."name" as "organization_name", "varsets"."project_id", "varsets"."name", "varsets"."description", "varsets"."global", "varsets"."priority", "varsets"."created_at", "varsets"."updated_at", case when "organization_versions"."version" = $1 then null else (select coalesce(json_agg("varset_workspaces"."workspace_id" order by "varset_workspaces"."workspace_id" collate "C"), '[]'::json) as "ids" from "varset_workspaces" where "varset_workspaces"."varset_id" = "varsets"."id") end as "workspace_ids", case when "organization_versions"."version" = $2 then null else (select coalesce(json_agg("varset_projects"."project_id" order by "varset_projects"."project_id" collate "C"), '[]'::json) as "ids" from "varset_projects" where "varset_projects"."varset_id" = "varsets"."id") end as "project_ids", case when "organization_versions"."version" = $3 then null else (select coalesce(json_agg("varset_variables"."id" order by "varset_variables"."key" collate "C", "varset_variables"."category", "varset_variables"."id"), '[]'::json) as "variables" from "varset_variables" where "varset_variables"."varset_id" = "varsets"."id") end as "variables", "organization_versions"."version" as "organization_version", "credentials_version"."version" as "credentials_version" from "varsets" inner join "organizations" on "organizations"."id" = "varsets"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "varsets"."organization_id" inner join "credentials_version" on true where "varsets"."id" = $4;

-- findVarsetOrganizationId: by id
select "organization_id" from "varsets" where "id" = $1;

-- insertVarset: a set
insert into "varsets" ("id", "organization_id", "project_id", "name", "description", "global", "priority", "created_at", "updated_at", "search_name") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- isVarsetNameTaken: a name
select "id" from "varsets" where "organization_id" = $1 and "name" = $2 and "id" <> $3;

-- selectVarsets: a query
select "varsets"."id", "varsets"."organization_id", "organizations"."name" as "organization_name", "varsets"."project_id", "varsets"."name", "varsets"."description", "varsets"."global", "varsets"."priority", "varsets"."created_at", "varsets"."updated_at" from "varsets" inner join "organizations" on "organizations"."id" = "varsets"."organization_id" where "varsets"."id" = $1;

-- setVariablesGlobal: global
update "varset_variables" set "global_organization_id" = $1 where "varset_id" = $2;

-- setVariablesGlobal: no longer global
update "varset_variables" set "global_organization_id" = $1 where "varset_id" = $2;

-- toVarsetRead: a row (builds no statement)
-- (no statement)

-- touchVarsetAt: by id
update "varsets" set "updated_at" = $1 where "id" = $2;

-- updateVarset: every attribute
update "varsets" set "name" = $1, "description" = $2, "global" = $3, "priority" = $4, "updated_at" = $5, "search_name" = $6 where "id" = $7;

-- updateVarset: the name
update "varsets" set "name" = $1, "search_name" = $2 where "id" = $3;

-- withRelations: ids of variables
select "varsets"."id", "varsets"."organization_id", "organizations"."name" as "organization_name", "varsets"."project_id", "varsets"."name", "varsets"."description", "varsets"."global", "varsets"."priority", "varsets"."created_at", "varsets"."updated_at", (select coalesce(json_agg("varset_workspaces"."workspace_id" order by "varset_workspaces"."workspace_id" collate "C"), '[]'::json) as "ids" from "varset_workspaces" where "varset_workspaces"."varset_id" = "varsets"."id") as "workspace_ids", (select coalesce(json_agg("varset_projects"."project_id" order by "varset_projects"."project_id" collate "C"), '[]'::json) as "ids" from "varset_projects" where "varset_projects"."varset_id" = "varsets"."id") as "project_ids", (select coalesce(json_agg("varset_variables"."id" order by "varset_variables"."key" collate "C", "varset_variables"."category", "varset_variables"."id"), '[]'::json) as "variables" from "varset_variables" where "varset_variables"."varset_id" = "varsets"."id") as "variables" from "varsets" inner join "organizations" on "organizations"."id" = "varsets"."organization_id" where "varsets"."id" = $1;

-- withRelations: rows of variables unless at a version
select "varsets"."id", "varsets"."organization_id", "organizations"."name" as "organization_name", "varsets"."project_id", "varsets"."name", "varsets"."description", "varsets"."global", "varsets"."priority", "varsets"."created_at", "varsets"."updated_at", case when "organization_versions"."version" = $1 then null else (select coalesce(json_agg("varset_workspaces"."workspace_id" order by "varset_workspaces"."workspace_id" collate "C"), '[]'::json) as "ids" from "varset_workspaces" where "varset_workspaces"."varset_id" = "varsets"."id") end as "workspace_ids", case when "organization_versions"."version" = $2 then null else (select coalesce(json_agg("varset_projects"."project_id" order by "varset_projects"."project_id" collate "C"), '[]'::json) as "ids" from "varset_projects" where "varset_projects"."varset_id" = "varsets"."id") end as "project_ids", case when "organization_versions"."version" = $3 then null else (select coalesce(json_agg(json_build_object('id', "varset_variables"."id", 'key', "varset_variables"."key", 'value', "varset_variables"."value", 'description', "varset_variables"."description", 'category', "varset_variables"."category", 'hcl', "varset_variables"."hcl", 'sensitive', "varset_variables"."sensitive", 'value_needed', "varset_variables"."value_needed", 'version_id', "varset_variables"."version_id", 'created_at', "varset_variables"."created_at") order by "varset_variables"."key" collate "C", "varset_variables"."category", "varset_variables"."id"), '[]'::json) as "variables" from "varset_variables" where "varset_variables"."varset_id" = "varsets"."id") end as "variables" from "varsets" inner join "organizations" on "organizations"."id" = "varsets"."organization_id" inner join "organization_versions" on "organization_versions"."organization_id" = "varsets"."organization_id" where "varsets"."id" = $4;
