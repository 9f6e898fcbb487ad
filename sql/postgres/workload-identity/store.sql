-- The SQL of src/workload-identity/store.ts on PostgreSQL, written by npm run sql:snapshots.

-- closeOpenKeys: at a time
update "workload_identity_keys" set "signs_until" = $1, "published_until" = $2 where "signs_until" is null;

-- insertKey: a key
insert into "workload_identity_keys" ("id", "public_jwk", "private_key", "created_at", "signs_from", "signs_until", "published_until") values ($1, $2, $3, $4, $5, $6, $7);

-- listLiveKeys: at a time
select * from "workload_identity_keys" where ("published_until" is null or "published_until" > $1) order by "signs_from", "id";
