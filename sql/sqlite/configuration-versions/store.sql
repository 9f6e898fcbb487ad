-- The SQL of src/configuration-versions/store.ts on SQLite, written by npm run sql:snapshots.

-- findArchive: by id
select "data" from "configuration_version_archives" where "configuration_version_id" = +?;

-- findConfigurationVersion: by id
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at", "workspaces"."organization_id", "workspaces"."project_id" from "configuration_versions" inner join "workspaces" on "workspaces"."id" = "configuration_versions"."workspace_id" where "configuration_versions"."id" in (?) order by "configuration_versions"."seq";

-- findConfigurationVersions: two ids
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at", "workspaces"."organization_id", "workspaces"."project_id" from "configuration_versions" inner join "workspaces" on "workspaces"."id" = "configuration_versions"."workspace_id" where "configuration_versions"."id" in (?, ?) order by "configuration_versions"."seq";

-- findOpenUpload: by secret
select "id" from "configuration_versions" where "upload_secret_hash" = +? and "status" in (?, ?) and "upload_expires_at" > ? and not exists (select "runs"."id" from "runs" where "runs"."configuration_version_id" = "configuration_versions"."id");

-- findRunnableConfigurationVersion: the latest uploaded
select "id", "status", "speculative" from "configuration_versions" where "workspace_id" = +? and "status" = +? order by "seq" desc limit ?;
select "id", "status", "speculative" from "configuration_versions" where "id" = +?;

-- findRunnableConfigurationVersion: one named
select "id", "status", "speculative" from "configuration_versions" where "workspace_id" = +? and "id" = +?;
select "id", "status", "speculative" from "configuration_versions" where "id" = +?;

-- hasUnfinishedRun: by id
select "id" from "runs" where "configuration_version_id" = +? and "status" in (?, ?) limit ?;

-- insertConfigurationVersion: a pending one
insert into "configuration_versions" ("id", "workspace_id", "status", "auto_queue_runs", "speculative", "provisional", "error", "error_message", "created_at", "uploaded_at", "errored_at", "archived_at", "upload_secret_hash", "upload_expires_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listConfigurationVersions: a page
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at", (select count(*) as "n" from "configuration_versions" where "workspace_id" = +?) as "matching_total" from "configuration_versions" where "workspace_id" = +? order by "seq" desc limit ? offset ?;
select (select count(*) as "n" from "configuration_versions" where "workspace_id" = +?) as "n";

-- lockConfigurationVersion: by id
select "configuration_versions"."id", "configuration_versions"."workspace_id", "configuration_versions"."status", "configuration_versions"."auto_queue_runs", "configuration_versions"."speculative", "configuration_versions"."provisional", "configuration_versions"."error", "configuration_versions"."error_message", "configuration_versions"."created_at", "configuration_versions"."uploaded_at", "configuration_versions"."errored_at", "configuration_versions"."archived_at" from "configuration_versions" where "id" = +?;

-- markArchived: by id
update "configuration_versions" set "status" = +?, "archived_at" = +?, "upload_secret_hash" = +?, "upload_expires_at" = +? where "id" = +?;
delete from "configuration_version_archives" where "configuration_version_id" = +?;

-- markErrored: an upload
update "configuration_versions" set "status" = +?, "error" = +?, "error_message" = +?, "errored_at" = +?, "upload_secret_hash" = +?, "upload_expires_at" = +? where "id" = +? and "upload_secret_hash" = +? and "status" = +?;

-- storeUploadedArchive: an upload
update "configuration_versions" set "status" = +?, "uploaded_at" = +? where "id" = +? and "upload_secret_hash" = +? and "status" in (?, ?) and "upload_expires_at" > ? and not exists (select "runs"."id" from "runs" where "runs"."configuration_version_id" = "configuration_versions"."id");
insert into "configuration_version_archives" ("configuration_version_id", "data") values (?, ?) on conflict ("configuration_version_id") do update set "data" = +?;
