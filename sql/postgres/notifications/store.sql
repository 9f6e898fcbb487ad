-- The SQL of src/notifications/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- countConfigurations: an organization
select count(*) as "count" from "varset_notification_configurations" where "organization_id" = $1;

-- deleteConfiguration: by id
delete from "varset_notification_configurations" where "id" = $1;

-- dropQueuedDeliveries: a configuration
delete from "varset_notification_deliveries" where "configuration_id" = $1 and "status" = $2;

-- findConfiguration: by id
select "varset_notification_configurations".*, "organizations"."name" as "organization_name" from "varset_notification_configurations" inner join "organizations" on "organizations"."id" = "varset_notification_configurations"."organization_id" where "varset_notification_configurations"."id" = $1;

-- findResponses: two configurations
select * from "varset_notification_responses" where "configuration_id" in ($1, $2) order by "id" desc;

-- insertConfiguration: a configuration
insert into "varset_notification_configurations" ("id", "organization_id", "name", "destination_type", "url", "token", "enabled", "triggers", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- insertResponse: a response
insert into "varset_notification_responses" ("configuration_id", "url", "code", "body", "headers", "error", "successful", "sent_at", "varset_id", "version_number", "attempt") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);
delete from "varset_notification_responses" where "configuration_id" = $1 and "id" < (select "id" from "varset_notification_responses" where "configuration_id" = $2 order by "id" desc limit $3 offset $4);

-- organizationExists: by id
select "id" from "organizations" where "id" = $1;

-- pageOfConfigurations: a page
select "varset_notification_configurations".*, "organizations"."name" as "organization_name" from "varset_notification_configurations" inner join "organizations" on "organizations"."id" = "varset_notification_configurations"."organization_id" where "varset_notification_configurations"."organization_id" = $1 order by "varset_notification_configurations"."seq" limit $2 offset $3;
select count(*) as "count" from "varset_notification_configurations" where "organization_id" = $1;

-- updateConfiguration: a configuration
select "varset_notification_configurations".*, "organizations"."name" as "organization_name" from "varset_notification_configurations" inner join "organizations" on "organizations"."id" = "varset_notification_configurations"."organization_id" where "varset_notification_configurations"."id" = $1;
update "varset_notification_configurations" set "name" = $1, "destination_type" = $2, "url" = $3, "token" = $4, "enabled" = $5, "triggers" = $6, "updated_at" = $7 where "id" = $8;
