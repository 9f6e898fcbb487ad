-- The SQL of src/audit/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteEmptyHours: hours without events
delete from "audit_event_hours" where "events" <= ?;

-- deleteEventsBefore: a batch of an organization's
delete from "audit_events" where "organization_id" = +? and ("timestamp", "id") in (select "oldest"."timestamp", "oldest"."id" from "audit_events" as "oldest" where "oldest"."organization_id" = +? and "oldest"."timestamp" < ? order by "oldest"."timestamp", "oldest"."id" limit ?);

-- findOrganizationId: by name
select "id" from "organizations" where "name" = +?;

-- findOrganizationsWithEventsBefore: before a time
select distinct "organization_id" from "audit_event_hours" where "hour" <= ? and "events" > ?;

-- insertAuditEvent: an event
insert into "audit_events" ("id", "organization_id", "timestamp", "auth_type", "accessor_id", "auth_description", "request_id", "resource_id", "resource_type", "action", "meta") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listAuditEvents: a page
select *, (select coalesce(sum(events), 0) from audit_event_hours where organization_id = +?) as "matching_total" from "audit_events" where "organization_id" = +? order by "timestamp" desc, "id" desc limit ? offset ?;
select (select coalesce(sum(events), 0) from audit_event_hours where organization_id = +?) as "n";

-- listAuditEvents: since
select *, ((select coalesce(sum(events), 0) from audit_event_hours where organization_id = +? and hour > ?) + (select count(*) from audit_events where organization_id = +? and timestamp >= ? and timestamp < ?)) as "matching_total" from "audit_events" where "organization_id" = +? and "timestamp" >= ? order by "timestamp" desc, "id" desc limit ? offset ?;
select ((select coalesce(sum(events), 0) from audit_event_hours where organization_id = +? and hour > ?) + (select count(*) from audit_events where organization_id = +? and timestamp >= ? and timestamp < ?)) as "n";

-- listAuditEvents: filtered by type, action and who
select *, ((select count(*) as "n" from "audit_events" where "organization_id" = +? and "resource_type" = +? and "action" = +? and lower("auth_description") like ? escape '\')) as "matching_total" from "audit_events" where "organization_id" = +? and "resource_type" = +? and "action" = +? and lower("auth_description") like ? escape '\' order by "timestamp" desc, "id" desc limit ? offset ?;
select ((select count(*) as "n" from "audit_events" where "organization_id" = +? and "resource_type" = +? and "action" = +? and lower("auth_description") like ? escape '\')) as "n";
