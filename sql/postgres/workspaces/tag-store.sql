-- The SQL of src/workspaces/tag-store.ts on PostgreSQL, written by npm run sql:snapshots.

-- attachTags: two tags
select "tag_id" from "workspace_tags" where "workspace_id" = $1;
insert into "workspace_tags" ("workspace_id", "tag_id") values ($1, $2), ($3, $4);

-- detachTags: two tags
delete from "workspace_tags" where "workspace_id" = $1 and "tag_id" in ($2, $3);

-- insertTags: two tags
insert into "tags" ("id", "name", "created_at", "organization_id") values ($1, $2, $3, $4), ($5, $6, $7, $8);

-- tagsById: two ids
select "id", "name" from "tags" where "organization_id" = $1 and "id" in ($2, $3);

-- tagsByName: two names
select "id", "name" from "tags" where "organization_id" = $1 and "name" in ($2, $3);

-- tagsOfOrganization: every
select "tags"."id", "tags"."name", "tags"."created_at", (select count(*) as "n" from "workspace_tags" where "workspace_tags"."tag_id" = "tags"."id") as "instance_count" from "tags" where "tags"."organization_id" = $1 order by "tags"."name" limit $2 offset $3;
select count(*) as "n" from "tags" where "tags"."organization_id" = $1;

-- tagsOfOrganization: searched
select "tags"."id", "tags"."name", "tags"."created_at", (select count(*) as "n" from "workspace_tags" where "workspace_tags"."tag_id" = "tags"."id") as "instance_count" from "tags" where "tags"."organization_id" = $1 and lower(tags.name) like lower($2) escape '\' order by "tags"."name" limit $3 offset $4;
select count(*) as "n" from "tags" where "tags"."organization_id" = $1 and lower(tags.name) like lower($2) escape '\';

-- tagsOfWorkspace: every
select "tags"."id", "tags"."name" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = $1 order by "tags"."name" limit $2 offset $3;
select count(*) as "n" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = $1;

-- tagsOfWorkspace: searched
select "tags"."id", "tags"."name" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = $1 and lower(tags.name) like lower($2) escape '\' order by "tags"."name" limit $3 offset $4;
select count(*) as "n" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = $1 and lower(tags.name) like lower($2) escape '\';
