-- The SQL of src/db/search.ts on PostgreSQL, written by npm run sql:snapshots.

-- contains: a folded column
select "name" from "organizations" where "search_name" like $1 escape '\';

-- containsPattern: a text (builds no statement)
-- (no statement)

-- containsText: a column
select "name" from "organizations" where replace("name", $1, '') <> "name";

-- matches: a pattern
select "name" from "organizations" where "search_name" like $1 escape '\';

-- searchable: a text (builds no statement)
-- (no statement)
