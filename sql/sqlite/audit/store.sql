-- The SQL of src/audit/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteEmptyHours: hours without events
delete from "audit_event_hours" where "events" <= ?;

-- deleteEventsBefore: a batch
delete from "audit_events" where "id" in (select "id" from "audit_events" where "timestamp" < ? order by "timestamp" limit ?);

-- findOrganizationId: by name
select "id" from "organizations" where "name" = +?;

-- insertAuditEvent: an event
insert into "audit_events" ("id", "organization_id", "timestamp", "auth_type", "accessor_id", "auth_description", "request_id", "resource_id", "resource_type", "action", "meta") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- listAuditEvents: a page
select *, (select coalesce(sum(events), 0) from audit_event_hours where organization_id = +?) as "matching_total" from "audit_events" where "organization_id" = +? order by "timestamp" desc, "id" desc limit ? offset ?;
select (select coalesce(sum(events), 0) from audit_event_hours where organization_id = +?) as "n";

-- listAuditEvents: since
select *, ((select coalesce(sum(events), 0) from audit_event_hours where organization_id = +? and hour > ?) + (select count(*) from audit_events where organization_id = +? and timestamp >= ? and timestamp < ?)) as "matching_total" from "audit_events" where "organization_id" = +? and "timestamp" >= ? order by "timestamp" desc, "id" desc limit ? offset ?;
select ((select coalesce(sum(events), 0) from audit_event_hours where organization_id = +? and hour > ?) + (select count(*) from audit_events where organization_id = +? and timestamp >= ? and timestamp < ?)) as "n";
