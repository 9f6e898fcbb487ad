-- The SQL of src/organizations/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteOrganization: by id
delete from "organizations" where "id" = $1;

-- findOrganizationByName: by name
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organization_versions"."version" from "organizations" inner join "organization_versions" on "organization_versions"."organization_id" = "organizations"."id" where "organizations"."name" = $1;

-- findOrganizationName: by id
select "name" from "organizations" where "id" = $1;

-- findOrganizationRecord: by name
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $1 where "organizations"."name" = $2;

-- findSettings: by id
select "settings" from "organizations" where "id" = $1;

-- insertOrganization: an organization
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $1 where "organizations"."name" = $2;
insert into "organizations" ("id", "name", "email", "created_at", "settings", "user_tokens_enabled", "search_name", "search_email") values ($1, $2, $3, $4, $5, $6, $7, $8);

-- listOrganizations: every
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id", (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $1) as "matching_total" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $2 order by "organizations"."name" limit $3 offset $4;
select (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $1) as "n";

-- listOrganizations: search, name, email, only and except
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id", (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $1 where "organizations"."id" in ($2) and "organizations"."id" not in ($3) and ("organizations"."search_name" like $4 escape '\' or "organizations"."search_email" like $5 escape '\') and "organizations"."search_name" like $6 escape '\' and "organizations"."search_email" like $7 escape '\') as "matching_total" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $8 where "organizations"."id" in ($9) and "organizations"."id" not in ($10) and ("organizations"."search_name" like $11 escape '\' or "organizations"."search_email" like $12 escape '\') and "organizations"."search_name" like $13 escape '\' and "organizations"."search_email" like $14 escape '\' order by "organizations"."name" limit $15 offset $16;
select (select count(*) as "n" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $1 where "organizations"."id" in ($2) and "organizations"."id" not in ($3) and ("organizations"."search_name" like $4 escape '\' or "organizations"."search_email" like $5 escape '\') and "organizations"."search_name" like $6 escape '\' and "organizations"."search_email" like $7 escape '\') as "n";

-- updateOrganization: a record
select "organizations"."id", "organizations"."name", "organizations"."email", "organizations"."created_at", "organizations"."settings", "projects"."id" as "default_project_id" from "organizations" inner join "projects" on "projects"."organization_id" = "organizations"."id" and "projects"."is_default" = $1 where "organizations"."name" = $2;
update "organizations" set "name" = $1, "email" = $2, "settings" = $3, "user_tokens_enabled" = $4, "search_name" = $5, "search_email" = $6 where "id" = $7;
