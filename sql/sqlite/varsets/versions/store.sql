-- The SQL of src/varsets/versions/store.ts on SQLite, written by npm run sql:snapshots.

-- findLastVersionNumber: a set
select "number" from "varset_versions" where "varset_id" = +? order by "number" desc limit ?;

-- findNewestVersion: a set
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."varset_id" = +? order by "varset_versions"."number" desc limit ?;

-- findVersion: by id
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."id" = +?;

-- findVersionsAfter: a set
select "number", "changes", "sealed" from "varset_versions" where "varset_id" = +? and "number" > ? order by "number" desc;

-- insertVersion: a version
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."id" = +?;
insert into "varset_versions" ("id", "varset_id", "organization_id", "project_id", "number", "action", "rolled_back_to", "varset_name", "created_at", "actor_token_id", "actor_kind", "actor_team_id", "actor_description", "request_id", "changes", "sealed", "cause") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- newestVersionNumber: a set's, as a column
select (select "varset_versions"."number" from "varset_versions" where "varset_versions"."varset_id" = "varsets"."id" order by "varset_versions"."number" desc limit ?) as "number" from "varsets" where "varsets"."id" = +?;

-- pageOfVersions: a page
select "number" from "varset_versions" where "varset_id" = +? order by "number" desc limit ?;
select "varset_versions"."id", "varset_versions"."varset_id", "varset_versions"."organization_id", "varset_versions"."project_id", "varset_versions"."number", "varset_versions"."action", "varset_versions"."rolled_back_to", "varset_versions"."varset_name", "varset_versions"."created_at", "varset_versions"."actor_token_id", "varset_versions"."actor_kind", "varset_versions"."actor_team_id", "varset_versions"."actor_description", "varset_versions"."request_id", "varset_versions"."cause", "varset_versions"."changes", "organizations"."name" as "organization_name" from "varset_versions" inner join "organizations" on "organizations"."id" = "varset_versions"."organization_id" where "varset_versions"."varset_id" = +? and "varset_versions"."number" <= ? and "varset_versions"."number" >= ? order by "varset_versions"."number" desc;
