-- The SQL of src/db/search.ts on SQLite, written by npm run sql:snapshots.

-- contains: a folded column
select "name" from "organizations" where "search_name" like ? escape '\';

-- containsPattern: a text (builds no statement)
-- (no statement)

-- containsText: a column
select "name" from "organizations" where replace("name", ?, '') <> "name";

-- matches: a pattern
select "name" from "organizations" where "search_name" like ? escape '\';

-- searchable: a text (builds no statement)
-- (no statement)
