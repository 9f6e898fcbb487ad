-- The SQL of src/workspaces/tag-store.ts on SQLite, written by npm run sql:snapshots.

-- attachTags: two tags
select "tag_id" from "workspace_tags" where "workspace_id" = +?;
insert into "workspace_tags" ("workspace_id", "tag_id") values (?, ?), (?, ?);

-- detachTags: two tags
delete from "workspace_tags" where "workspace_id" = +? and "tag_id" in (?, ?);

-- insertTags: two tags
insert into "tags" ("id", "name", "created_at", "organization_id") values (?, ?, ?, ?), (?, ?, ?, ?);

-- tagsById: two ids
select "id", "name" from "tags" where "organization_id" = +? and "id" in (?, ?);

-- tagsByName: two names
select "id", "name" from "tags" where "organization_id" = +? and "name" in (?, ?);

-- tagsOfOrganization: every
select "tags"."id", "tags"."name", "tags"."created_at", (select count(*) as "n" from "workspace_tags" where "workspace_tags"."tag_id" = "tags"."id") as "instance_count" from "tags" where "tags"."organization_id" = +? order by "tags"."name" limit ? offset ?;
select count(*) as "n" from "tags" where "tags"."organization_id" = +?;

-- tagsOfOrganization: searched
select "tags"."id", "tags"."name", "tags"."created_at", (select count(*) as "n" from "workspace_tags" where "workspace_tags"."tag_id" = "tags"."id") as "instance_count" from "tags" where "tags"."organization_id" = +? and lower(tags.name) like lower(?) escape '\' order by "tags"."name" limit ? offset ?;
select count(*) as "n" from "tags" where "tags"."organization_id" = +? and lower(tags.name) like lower(?) escape '\';

-- tagsOfWorkspace: every
select "tags"."id", "tags"."name" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = +? order by "tags"."name" limit ? offset ?;
select count(*) as "n" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = +?;

-- tagsOfWorkspace: searched
select "tags"."id", "tags"."name" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = +? and lower(tags.name) like lower(?) escape '\' order by "tags"."name" limit ? offset ?;
select count(*) as "n" from "workspace_tags" inner join "tags" on "tags"."id" = "workspace_tags"."tag_id" where "workspace_tags"."workspace_id" = +? and lower(tags.name) like lower(?) escape '\';
