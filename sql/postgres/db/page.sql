-- The SQL of src/db/page.ts on PostgreSQL, written by npm run sql:snapshots.

-- fetchPage: a page
select "name", (select count(*) as "n" from "organizations") as "matching_total" from "organizations" limit $1 offset $2;
select (select count(*) as "n" from "organizations") as "n";

-- limitToPage: a page
select "name" from "organizations" limit $1 offset $2;

-- pageWithTotal: a page with rows
select "name", (select count(*) as "n" from "organizations") as "matching_total" from "organizations" limit $1 offset $2;

-- pageWithTotal: a page past the last
select "name", (select count(*) as "n" from "organizations") as "matching_total" from "organizations" limit $1 offset $2;
select (select count(*) as "n" from "organizations") as "n";

-- splitTotal: no rows
select (select count(*) as "n" from "organizations") as "n";

-- withTotal: a page
select "name", (select count(*) as "n" from "organizations") as "matching_total" from "organizations" limit $1 offset $2;
