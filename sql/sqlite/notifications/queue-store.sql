-- The SQL of src/notifications/queue-store.ts on SQLite, written by npm run sql:snapshots.

-- anyDue: now
select "id" from "varset_notification_deliveries" where "status" = +? and "next_attempt_at" <= ? and ("lease_until" is null or "lease_until" < ?) limit ?;

-- claimDue: nothing due
select "d"."id" from "varset_notification_deliveries" as "d" where "d"."status" = +? and "d"."next_attempt_at" <= ? and ("d"."lease_until" is null or "d"."lease_until" < ?) and not exists (select "e"."id" from "varset_notification_deliveries" as "e" where "e"."configuration_id" = "d"."configuration_id" and "e"."varset_id" = "d"."varset_id" and "e"."number" < "d"."number" and "e"."status" = +?) order by "d"."id" limit ?;

-- claimDue: a due delivery
select "d"."id" from "varset_notification_deliveries" as "d" where "d"."status" = +? and "d"."next_attempt_at" <= ? and ("d"."lease_until" is null or "d"."lease_until" < ?) and not exists (select "e"."id" from "varset_notification_deliveries" as "e" where "e"."configuration_id" = "d"."configuration_id" and "e"."varset_id" = "d"."varset_id" and "e"."number" < "d"."number" and "e"."status" = +?) order by "d"."id" limit ?;
update "varset_notification_deliveries" set "lease_owner" = +?, "lease_until" = +? where "id" in (?);
select "d"."id", "d"."attempts", "d"."workspace_count", "c"."id" as "configuration_id", "c"."name", "c"."destination_type", "c"."url", "c"."token", "v"."id" as "version_id", "v"."varset_id", "v"."organization_id", "o"."name" as "organization_name", "v"."project_id", "v"."number", "v"."action", "v"."rolled_back_to", "v"."varset_name", "v"."created_at", "v"."actor_token_id", "v"."actor_kind", "v"."actor_team_id", "v"."actor_description", "v"."request_id", "v"."cause", "v"."changes" from "varset_notification_deliveries" as "d" inner join "varset_notification_configurations" as "c" on "c"."id" = "d"."configuration_id" inner join "varset_versions" as "v" on "v"."id" = "d"."version_id" inner join "organizations" as "o" on "o"."id" = "v"."organization_id" where "d"."id" in (?) order by "d"."id";

-- completeDelivery: by id
delete from "varset_notification_deliveries" where "id" = +? and "lease_owner" = +?;

-- failDelivery: to retry
update "varset_notification_deliveries" set "attempts" = +?, "next_attempt_at" = +?, "lease_owner" = +?, "lease_until" = +? where "id" = +? and "lease_owner" = +?;

-- failDelivery: given up
update "varset_notification_deliveries" set "status" = +?, "attempts" = +?, "lease_owner" = +?, "lease_until" = +? where "id" = +? and "lease_owner" = +?;

-- releaseDelivery: by id
update "varset_notification_deliveries" set "lease_owner" = +?, "lease_until" = +? where "id" = +? and "lease_owner" = +?;
