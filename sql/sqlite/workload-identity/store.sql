-- The SQL of src/workload-identity/store.ts on SQLite, written by npm run sql:snapshots.

-- closeOpenKeys: at a time
update "workload_identity_keys" set "signs_until" = +?, "published_until" = +? where "signs_until" is null;

-- insertKey: a key
insert into "workload_identity_keys" ("id", "public_jwk", "private_key", "created_at", "signs_from", "signs_until", "published_until") values (?, ?, ?, ?, ?, ?, ?);

-- listLiveKeys: at a time
select * from "workload_identity_keys" where ("published_until" is null or "published_until" > ?) order by "signs_from", "id";
