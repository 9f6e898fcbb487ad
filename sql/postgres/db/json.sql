-- The SQL of src/db/json.ts on PostgreSQL, written by npm run sql:snapshots.

-- fromJson: a value (builds no statement)
-- (no statement)

-- jsonArrayOf: ordered values
select coalesce(json_agg(1 order by 1), '[]'::json) as "a";

-- jsonObjectOf: two fields
select json_build_object('a', 1, 'b', 'b') as "o";
