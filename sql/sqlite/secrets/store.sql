-- The SQL of src/secrets/store.ts on SQLite, written by npm run sql:snapshots.

-- deleteSetting: a setting
delete from "settings" where "name" = +?;

-- findSetting: by name
select "value" from "settings" where "name" = +?;

-- insertSettingOnce: a setting
insert into "settings" ("name", "value") values (?, ?) on conflict do nothing;

-- replaceSealedValue: a column
update "varset_variables" set "value" = +?
    where "id" = +? and "value" = +?;

-- sealedValues: a flagged column

    select "id" as id, "value" as value, null as varset from "varset_variables"
    where "id" > ? and "sensitive" = +? order by "id" limit ?;

-- sealedValues: a map column

    select "id" as id, "sealed" as value, null as varset from "varset_versions"
    where "id" > ? and "sealed" is not null order by "id" limit ?;

-- settingsNamed: by prefix
select "name", "value" from "settings" where "name" like ? order by "name";

-- updateSetting: a setting
update "settings" set "value" = +? where "name" = +?;
