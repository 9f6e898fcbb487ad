-- The SQL of src/varsets/versions/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- findLastVersionNumber: a set
select "number" from "varset_versions" where "varset_id" = $1 order by "number" desc limit $2;

-- findNewestVersion: a set
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."varset_id" = $1 order by "varset_versions"."number" desc limit $2;

-- findVersion: by id
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."id" = $1;

-- findVersionsAfter: a set
select "number", "changes", "sealed" from "varset_versions" where "varset_id" = $1 and "number" > $2 order by "number" desc;

-- insertVersion: a version
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."id" = $1;
insert into "varset_versions" ("id", "varset_id", "organization_id", "project_id", "number", "action", "rolled_back_to", "varset_name", "created_at", "actor_token_id", "actor_kind", "actor_team_id", "actor_description", "request_id", "changes", "sealed", "cause") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17);

-- newestVersionNumber: a set's, as a column
select (select "varset_versions"."number" from "varset_versions" where "varset_versions"."varset_id" = "varsets"."id" order by "varset_versions"."number" desc limit $1) as "number" from "varsets" where "varsets"."id" = $2;

-- pageOfVersions: a page
select "number" from "varset_versions" where "varset_id" = $1 order by "number" desc limit $2;
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."varset_id" = $1 and "varset_versions"."number" <= $2 and "varset_versions"."number" >= $3 order by "varset_versions"."number" desc;
