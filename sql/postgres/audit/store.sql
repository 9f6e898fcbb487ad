-- The SQL of src/audit/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteEmptyHours: hours without events
delete from "audit_event_hours" where "events" <= $1;

-- deleteEventsBefore: a batch of an organization's
delete from "audit_events" where "organization_id" = $1 and ("timestamp", "id") in (select "oldest"."timestamp", "oldest"."id" from "audit_events" as "oldest" where "oldest"."organization_id" = $2 and "oldest"."timestamp" < $3 order by "oldest"."timestamp", "oldest"."id" limit $4);

-- findOrganizationId: by name
select "id" from "organizations" where "name" = $1;

-- findOrganizationsWithEventsBefore: before a time
select distinct "organization_id" from "audit_event_hours" where "hour" <= $1 and "events" > $2;

-- insertAuditEvent: an event
insert into "audit_events" ("id", "organization_id", "timestamp", "auth_type", "accessor_id", "auth_description", "request_id", "resource_id", "resource_type", "action", "meta") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);

-- listAuditEvents: a page
select *, (select coalesce(sum(events), 0) from audit_event_hours where organization_id = $1) as "matching_total" from "audit_events" where "organization_id" = $2 order by "timestamp" desc, "id" desc limit $3 offset $4;
select (select coalesce(sum(events), 0) from audit_event_hours where organization_id = $1) as "n";

-- listAuditEvents: since
select *, ((select coalesce(sum(events), 0) from audit_event_hours where organization_id = $1 and hour > $2) + (select count(*) from audit_events where organization_id = $3 and timestamp >= $4 and timestamp < $5)) as "matching_total" from "audit_events" where "organization_id" = $6 and "timestamp" >= $7 order by "timestamp" desc, "id" desc limit $8 offset $9;
select ((select coalesce(sum(events), 0) from audit_event_hours where organization_id = $1 and hour > $2) + (select count(*) from audit_events where organization_id = $3 and timestamp >= $4 and timestamp < $5)) as "n";

-- listAuditEvents: filtered by type, action and who
select *, ((select count(*) as "n" from "audit_events" where "organization_id" = $1 and "resource_type" = $2 and "action" = $3 and lower("auth_description") like $4 escape '\')) as "matching_total" from "audit_events" where "organization_id" = $5 and "resource_type" = $6 and "action" = $7 and lower("auth_description") like $8 escape '\' order by "timestamp" desc, "id" desc limit $9 offset $10;
select ((select count(*) as "n" from "audit_events" where "organization_id" = $1 and "resource_type" = $2 and "action" = $3 and lower("auth_description") like $4 escape '\')) as "n";
