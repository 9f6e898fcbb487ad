-- The SQL of src/db/json.ts on SQLite, written by npm run sql:snapshots.

-- fromJson: a value (builds no statement)
-- (no statement)

-- jsonArrayOf: ordered values
select json_group_array(1 order by 1) as "a";

-- jsonObjectOf: two fields
select json_object('a', 1, 'b', 'b') as "o";
