-- The SQL of src/secrets/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- deleteSetting: a setting
delete from "settings" where "name" = $1;

-- findSetting: by name
select "value" from "settings" where "name" = $1;

-- insertSettingOnce: a setting
insert into "settings" ("name", "value") values ($1, $2) on conflict do nothing;

-- replaceSealedValue: a column
update "varset_variables" set "value" = $1
    where "id" = $2 and "value" = $3;

-- sealedValues: a flagged column

    select "id" as id, "value" as value, null as varset from "varset_variables"
    where "id" > $1 and "sensitive" = $2 order by "id" limit $3;

-- sealedValues: a map column

    select "id" as id, "sealed" as value, null as varset from "varset_versions"
    where "id" > $1 and "sealed" is not null order by "id" limit $2;

-- settingsNamed: by prefix
select "name", "value" from "settings" where "name" like $1 order by "name";

-- updateSetting: a setting
update "settings" set "value" = $1 where "name" = $2;
