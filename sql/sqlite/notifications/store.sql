-- The SQL of src/notifications/store.ts on SQLite, written by npm run sql:snapshots.

-- countConfigurations: an organization
select count(*) as "count" from "varset_notification_configurations" where "organization_id" = +?;

-- deleteConfiguration: by id
delete from "varset_notification_configurations" where "id" = +?;

-- dropQueuedDeliveries: a configuration
delete from "varset_notification_deliveries" where "configuration_id" = +? and "status" = +?;

-- findConfiguration: by id
select "varset_notification_configurations".*, "organizations"."name" as "organization_name" from "varset_notification_configurations" inner join "organizations" on "organizations"."id" = "varset_notification_configurations"."organization_id" where "varset_notification_configurations"."id" = +?;

-- findResponses: two configurations
select * from "varset_notification_responses" where "configuration_id" in (?, ?) order by "id" desc;

-- insertConfiguration: a configuration
insert into "varset_notification_configurations" ("id", "organization_id", "name", "destination_type", "url", "token", "enabled", "triggers", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- insertResponse: a response
insert into "varset_notification_responses" ("configuration_id", "url", "code", "body", "headers", "error", "successful", "sent_at", "varset_id", "version_number", "attempt") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
delete from "varset_notification_responses" where "configuration_id" = +? and "id" < (select "id" from "varset_notification_responses" where "configuration_id" = +? order by "id" desc limit ? offset ?);

-- organizationExists: by id
select "id" from "organizations" where "id" = +?;

-- pageOfConfigurations: a page
select "varset_notification_configurations".*, "organizations"."name" as "organization_name" from "varset_notification_configurations" inner join "organizations" on "organizations"."id" = "varset_notification_configurations"."organization_id" where "varset_notification_configurations"."organization_id" = +? order by "varset_notification_configurations"."seq" limit ? offset ?;
select count(*) as "count" from "varset_notification_configurations" where "organization_id" = +?;

-- updateConfiguration: a configuration
select "varset_notification_configurations".*, "organizations"."name" as "organization_name" from "varset_notification_configurations" inner join "organizations" on "organizations"."id" = "varset_notification_configurations"."organization_id" where "varset_notification_configurations"."id" = +?;
update "varset_notification_configurations" set "name" = +?, "destination_type" = +?, "url" = +?, "token" = +?, "enabled" = +?, "triggers" = +?, "updated_at" = +? where "id" = +?;
