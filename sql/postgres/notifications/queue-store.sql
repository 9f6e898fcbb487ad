-- The SQL of src/notifications/queue-store.ts on PostgreSQL, written by npm run sql:snapshots.

-- anyDue: now
select "id" from "varset_notification_deliveries" where "status" = $1 and "next_attempt_at" <= $2 and ("lease_until" is null or "lease_until" < $3) limit $4;

-- claimDue: nothing due
select "d"."id" from "varset_notification_deliveries" as "d" where "d"."status" = $1 and "d"."next_attempt_at" <= $2 and ("d"."lease_until" is null or "d"."lease_until" < $3) and not exists (select "e"."id" from "varset_notification_deliveries" as "e" where "e"."configuration_id" = "d"."configuration_id" and "e"."varset_id" = "d"."varset_id" and "e"."number" < "d"."number" and "e"."status" = $4) order by "d"."id" limit $5 for update skip locked;

-- claimDue: a due delivery
select "d"."id" from "varset_notification_deliveries" as "d" where "d"."status" = $1 and "d"."next_attempt_at" <= $2 and ("d"."lease_until" is null or "d"."lease_until" < $3) and not exists (select "e"."id" from "varset_notification_deliveries" as "e" where "e"."configuration_id" = "d"."configuration_id" and "e"."varset_id" = "d"."varset_id" and "e"."number" < "d"."number" and "e"."status" = $4) order by "d"."id" limit $5 for update skip locked;
update "varset_notification_deliveries" set "lease_owner" = $1, "lease_until" = $2 where "id" in ($3);
select "d"."id", "d"."attempts", "d"."workspace_count", "c"."id" as "configuration_id", "c"."name", "c"."destination_type", "c"."url", "c"."token", "v"."id" as "version_id", "v"."varset_id", "v"."organization_id", "o"."name" as "organization_name", "v"."project_id", "v"."number", "v"."action", "v"."rolled_back_to", "v"."varset_name", "v"."created_at", "v"."actor_token_id", "v"."actor_kind", "v"."actor_team_id", "v"."actor_description", "v"."request_id", "v"."cause", "v"."changes" from "varset_notification_deliveries" as "d" inner join "varset_notification_configurations" as "c" on "c"."id" = "d"."configuration_id" inner join "varset_versions" as "v" on "v"."id" = "d"."version_id" inner join "organizations" as "o" on "o"."id" = "v"."organization_id" where "d"."id" in ($1) order by "d"."id";

-- completeDelivery: by id
delete from "varset_notification_deliveries" where "id" = $1 and "lease_owner" = $2;

-- failDelivery: to retry
update "varset_notification_deliveries" set "attempts" = $1, "next_attempt_at" = $2, "lease_owner" = $3, "lease_until" = $4 where "id" = $5 and "lease_owner" = $6;

-- failDelivery: given up
update "varset_notification_deliveries" set "status" = $1, "attempts" = $2, "lease_owner" = $3, "lease_until" = $4 where "id" = $5 and "lease_owner" = $6;

-- releaseDelivery: by id
update "varset_notification_deliveries" set "lease_owner" = $1, "lease_until" = $2 where "id" = $3 and "lease_owner" = $4;
