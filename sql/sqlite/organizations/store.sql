-- The SQL of src/organizations/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteOrganization: by id
delete from "organizations" where "id" = +?;

-- findOrganizationByName: by name
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organization_versions"."version" from "organizations" inner join "organization_versions" on "organization_versions"."organization_id" = "organizations"."id" where "organizations"."name" = +?;

-- findOrganizationName: by id
select "name" from "organizations" where "id" = +?;

-- findOrganizationRecord: by name
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +? where "organizations"."name" = +?;

-- findSettings: by id
select "settings" from "organizations" where "id" = +?;

-- insertOrganization: an organization
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +? where "organizations"."name" = +?;
insert into "organizations" ("id", "name", "email", "created_at", "settings", "user_tokens_enabled", "search_name", "search_email") values (?, ?, ?, ?, ?, ?, ?, ?);

-- listOrganizations: every
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id", (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +?) as "matching_total" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +? order by "organizations"."name" limit ? offset ?;
select (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +?) as "n";

-- listOrganizations: search, name, email, only and except
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id", (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +? where "organizations"."id" in (?) and "organizations"."id" not in (?) and ("organizations"."search_name" like ? escape '\' or "organizations"."search_email" like ? escape '\') and "organizations"."search_name" like ? escape '\' and "organizations"."search_email" like ? escape '\') as "matching_total" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +? where "organizations"."id" in (?) and "organizations"."id" not in (?) and ("organizations"."search_name" like ? escape '\' or "organizations"."search_email" like ? escape '\') and "organizations"."search_name" like ? escape '\' and "organizations"."search_email" like ? escape '\' order by "organizations"."name" limit ? offset ?;
select (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +? where "organizations"."id" in (?) and "organizations"."id" not in (?) and ("organizations"."search_name" like ? escape '\' or "organizations"."search_email" like ? escape '\') and "organizations"."search_name" like ? escape '\' and "organizations"."search_email" like ? escape '\') as "n";

-- updateOrganization: a record
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = +? where "organizations"."name" = +?;
update "organizations" set "name" = +?, "email" = +?, "settings" = +?, "user_tokens_enabled" = +?, "search_name" = +?, "search_email" = +? where "id" = +?;
