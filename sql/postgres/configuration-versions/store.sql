-- The SQL of src/configuration-versions/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- findArchive: by id
select "data" from "configuration_version_archives" where "configuration_version_id" = $1;

-- findConfigurationVersion: by id
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at", "workspaces"."organization_id", "workspaces"."project_id" from "configuration_versions" inner join "workspaces" on "workspaces"."id" = "configuration_versions"."workspace_id" where "configuration_versions"."id" in ($1) order by "configuration_versions"."seq";

-- findConfigurationVersions: two ids
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at", "workspaces"."organization_id", "workspaces"."project_id" from "configuration_versions" inner join "workspaces" on "workspaces"."id" = "configuration_versions"."workspace_id" where "configuration_versions"."id" in ($1, $2) order by "configuration_versions"."seq";

-- findOpenUpload: by secret
select "id" from "configuration_versions" where "upload_secret_hash" = $1 and "status" in ($2, $3) and "upload_expires_at" > $4 and not exists (select "runs"."id" from "runs" where "runs"."configuration_version_id" = "configuration_versions"."id");

-- findRunnableConfigurationVersion: the latest uploaded
select "id", "status", "speculative" from "configuration_versions" where "workspace_id" = $1 and "status" = $2 order by "seq" desc limit $3;
select id from configuration_versions where id = $1 for share;
select "id", "status", "speculative" from "configuration_versions" where "id" = $1;

-- findRunnableConfigurationVersion: one named
select "id", "status", "speculative" from "configuration_versions" where "workspace_id" = $1 and "id" = $2;
select id from configuration_versions where id = $1 for share;
select "id", "status", "speculative" from "configuration_versions" where "id" = $1;

-- hasUnfinishedRun: by id
select "id" from "runs" where "configuration_version_id" = $1 and "status" in ($2, $3) limit $4;

-- insertConfigurationVersion: a pending one
insert into "configuration_versions" ("id", "workspace_id", "status", "auto_queue_runs", "speculative", "provisional", "error", "error_message", "created_at", "uploaded_at", "errored_at", "archived_at", "upload_secret_hash", "upload_expires_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14);

-- listConfigurationVersions: a page
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at", (select count(*) as "n" from "configuration_versions" where "workspace_id" = $1) as "matching_total" from "configuration_versions" where "workspace_id" = $2 order by "seq" desc limit $3 offset $4;
select (select count(*) as "n" from "configuration_versions" where "workspace_id" = $1) as "n";

-- lockConfigurationVersion: by id
select id from configuration_versions where id = $1 for update;
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at" from "configuration_versions" where "id" = $1;

-- markArchived: by id
update "configuration_versions" set "status" = $1, "archived_at" = $2, "upload_secret_hash" = $3, "upload_expires_at" = $4 where "id" = $5;
delete from "configuration_version_archives" where "configuration_version_id" = $1;

-- markErrored: an upload
update "configuration_versions" set "status" = $1, "error" = $2, "error_message" = $3, "errored_at" = $4, "upload_secret_hash" = $5, "upload_expires_at" = $6 where "id" = $7 and "upload_secret_hash" = $8 and "status" = $9;

-- storeUploadedArchive: an upload
select id from configuration_versions where id = $1 for update;
update "configuration_versions" set "status" = $1, "uploaded_at" = $2 where "id" = $3 and "upload_secret_hash" = $4 and "status" in ($5, $6) and "upload_expires_at" > $7 and not exists (select "runs"."id" from "runs" where "runs"."configuration_version_id" = "configuration_versions"."id");
insert into "configuration_version_archives" ("configuration_version_id", "data") values ($1, $2) on conflict ("configuration_version_id") do update set "data" = $3;
