import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { openStore } from '../src/db/connect.js';
import { takeBackup } from '../src/backup/take.js';
import { createKeyring, keyId, keyringKey } from '../src/secrets/keyring.js';
import { createOrganization, createWorkspace } from './support/factories/organizations.js';
import { assign, createVar, createVarset } from './support/factories/varsets.js';
import { runVarsetd, startServerProcess, varsetdEnv } from './support/processes.js';
import { ADMIN_TOKEN, httpClient } from './support/requests.js';
import { createTestStore, storeKind, withStoreMigratedTo, type TestStore } from './support/store.js';

/** `varsetd backup`, `backup verify` and `restore`, as processes, on the store the suite runs on. */

const newKey = () => randomBytes(32).toString('base64');
const KEY = newKey();
const KEY_ID = keyId(Buffer.from(KEY, 'base64'));
/** A keyring of these keys (base64), the first active. */
const keyring = (...keys: string[]) => createKeyring(keys.map((key) => keyringKey(Buffer.from(key, 'base64'))));
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-backups-'));
const stores: TestStore[] = [];

async function freshStore(): Promise<TestStore> {
  const store = await createTestStore();
  stores.push(store);
  return store;
}

const env = (store: TestStore, key = KEY) =>
  varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_ENCRYPTION_KEY: key });

/** Counts and the sealed values of a store, read directly. */
async function contents(store: TestStore) {
  const opened = await openStore(store);
  try {
    const count = async (table: string) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(opened.db)).rows[0]!.n);
    const { rows: hours } = await sql<{ n: number | null }>`select sum(events) as n from audit_event_hours`.execute(
      opened.db,
    );
    const { rows: sealed } = await sql<{
      key: string;
      value: string;
    }>`select key, value from varset_variables where sensitive = 1 order by key`.execute(opened.db);
    const { rows: tokens } = await sql<{
      token: string;
    }>`select token from varset_notification_configurations order by seq`.execute(opened.db);
    return {
      variables: await count('varset_variables'),
      versions: await count('varset_versions'),
      events: await count('audit_events'),
      eventHours: Number(hours[0]?.n ?? 0),
      sealed,
      tokens: tokens.map((row) => row.token),
    };
  } finally {
    await opened.close();
  }
}

/** A notification configuration (disabled: nothing is sent), whose token is sealed. */
const notification = (name: string) => ({
  data: {
    type: 'varset-notification-configurations',
    attributes: {
      name,
      'destination-type': 'generic',
      url: 'https://hooks.example.com/varsets',
      token: 'hook-secret',
      enabled: false,
    },
  },
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe(`backup, verify and restore (${storeKind})`, () => {
  let source: TestStore;
  let file: string;
  let varsetId: string;
  let organization: string;
  /** Writes done when the backup started, and when it ended. */
  let started: number;
  let during: number;

  before(async () => {
    source = await freshStore();
    const server = await startServerProcess(env(source));
    try {
      const client = httpClient(server.url);
      const org = await createOrganization(client);
      const workspace = await createWorkspace(client, org);
      const set = await createVarset(client, org);
      varsetId = set.id;
      await assign(client, set.id, 'workspaces', [workspace]);
      organization = org;
      // Three: a write that breaks a unique index is tried twice, which two numbers taken again would hide.
      for (const name of ['before-1', 'before-2', 'before-3']) {
        assert.equal(
          (await client.post(`/api/v2/organizations/${org}/varset-notification-configurations`, notification(name)))
            .status,
          201,
        );
      }
      let written = 0;
      const state: { writing: boolean; failure?: Error } = { writing: true };
      const writer = (async () => {
        for (let i = 0; state.writing; i++) {
          await createVar(client, set.id, {
            key: `k${String(i).padStart(5, '0')}`,
            value: `secret-${i}`,
            sensitive: i % 2 === 0,
          });
          written += 1;
        }
      })().catch((error: unknown) => (state.failure = error instanceof Error ? error : new Error(String(error))));
      const until = async (done: () => boolean) => {
        while (!done()) {
          if (state.failure) throw state.failure;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await until(() => written >= 20);
      file = path.join(folder, 'during.backup');
      started = written;
      const backup = await runVarsetd(['backup', '--to', file], env(source));
      assert.equal(backup.code, 0, backup.stderr);
      during = written;
      // Writes that end after the backup did are surely not in it.
      await until(() => written > during + 2);
      state.writing = false;
      await writer;
      if (state.failure) throw state.failure;
    } finally {
      await server.stop();
    }
  });

  after(async () => {
    for (const store of stores) await store.dispose();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('writes the file readable by its owner only, and no partial file remains', () => {
    assert.equal(mode(file), 0o600);
    assert.equal(fs.existsSync(`${file}.partial`), false);
  });

  it('refuses to replace an existing file without --force', async () => {
    const again = await runVarsetd(['backup', '--to', file], env(source));
    assert.equal(again.code, 1);
    assert.match(again.stderr, /exists \(--force replaces it\)/);
    const forced = path.join(folder, 'forced.backup');
    fs.writeFileSync(forced, 'old', { mode: 0o644 });
    const replaced = await runVarsetd(['backup', '--to', forced, '--force'], env(source));
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal(mode(forced), 0o600);
  });

  it('verify passes on a good file, reporting the values each key opens', async () => {
    const verified = await runVarsetd(['backup', 'verify', file], env(source));
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /counts and checksum match/);
    assert.match(verified.stdout, new RegExp(`key ${KEY_ID}: opened (\\d+) of \\1 sealed values`));
  });

  it('a backup taken while a server writes is consistent and restores every set, variable, sealed value, version and audit event', async () => {
    const target = await freshStore();
    const restored = await runVarsetd(['restore', '--from', file], env(target));
    assert.equal(restored.code, 0, restored.stderr);
    const before = await contents(source);
    const after = await contents(target);
    // Every write adds one variable, one version and one audit event, in one transaction.
    assert.ok(
      after.variables >= started && after.variables <= during && after.variables < before.variables,
      `${after.variables} variables`,
    );
    assert.equal(after.versions - after.variables, before.versions - before.variables);
    assert.equal(after.events - after.variables, before.events - before.variables);
    assert.equal(after.eventHours, after.events);
    const sealer = keyring(KEY);
    assert.ok(after.sealed.length > 0);
    for (const { key, value } of after.sealed) assert.equal(sealer.open(value), `secret-${Number(key.slice(1))}`);
    assert.deepEqual(
      after.tokens.map((token) => sealer.open(token)),
      ['hook-secret', 'hook-secret', 'hook-secret'],
    );

    const server = await startServerProcess(env(target));
    try {
      const client = httpClient(server.url);
      // Numbered rows (the configurations' sequence) go on after the restored ones.
      assert.equal(
        (
          await client.post(
            `/api/v2/organizations/${organization}/varset-notification-configurations`,
            notification('after'),
          )
        ).status,
        201,
      );
      const vars = await client.get(`/api/v2/varsets/${varsetId}/relationships/vars`);
      assert.equal(vars.status, 200);
      assert.equal(vars.body.meta.pagination['total-count'], after.variables);
      const versions = await client.get(`/api/v2/varsets/${varsetId}/versions`);
      assert.equal(versions.status, 200);
    } finally {
      await server.stop();
    }
  });

  it('verify fails on a truncated file and on an altered one, naming the problem', async () => {
    const truncated = path.join(folder, 'truncated.backup');
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cut = await runVarsetd(['backup', 'verify', truncated], env(source));
    assert.equal(cut.code, 1);
    assert.match(cut.stderr, /not a good backup: .*(truncated|unexpected end)/);

    const altered = path.join(folder, 'altered.backup');
    const text = zlib.gunzipSync(bytes).toString('utf8');
    fs.writeFileSync(altered, zlib.gzipSync(text.replace('secret-', 'Secret-').replace(/"k00001"/, '"k99999"')));
    const changed = await runVarsetd(['backup', 'verify', altered], env(source));
    assert.equal(changed.code, 1);
    assert.match(changed.stderr, /the checksum does not match the contents/);
  });

  it('verify fails when the keyring lacks a key the backup needs, naming it', async () => {
    const verified = await runVarsetd(['backup', 'verify', file], env(source, newKey()));
    assert.equal(verified.code, 1);
    assert.match(verified.stdout, new RegExp(`key ${KEY_ID}: opened 0 of \\d+ sealed values`));
    assert.match(verified.stderr, new RegExp(`varsetd backup verify: the keyring lacks key ${KEY_ID}$`, 'm'));
  });

  it('restore refuses a store that holds data without --force, and changes nothing', async () => {
    const target = await freshStore();
    const server = await startServerProcess(env(target));
    const client = httpClient(server.url);
    const org = await createOrganization(client);
    if (storeKind === 'sqlite') {
      const inUse = await runVarsetd(['restore', '--from', file, '--force'], env(target));
      assert.equal(inUse.code, 1);
      assert.match(
        inUse.stderr,
        new RegExp(`the SQLite store is in use by process ${server.pid}: stop every varsetd serving it first`),
      );
    }
    await server.stop();
    const refused = await runVarsetd(['restore', '--from', file], env(target));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /varsetd restore: refused, nothing changed: the store holds data: .*--force/);
    const kept = await startServerProcess(env(target));
    try {
      assert.equal((await httpClient(kept.url).get(`/api/v2/organizations/${org}`)).status, 200);
    } finally {
      await kept.stop();
    }
    const forced = await runVarsetd(['restore', '--from', file, '--force'], env(target));
    assert.equal(forced.code, 0, forced.stderr);
    const replaced = await startServerProcess(env(target));
    try {
      assert.equal((await httpClient(replaced.url).get(`/api/v2/organizations/${org}`)).status, 404);
      assert.equal((await httpClient(replaced.url).get(`/api/v2/varsets/${varsetId}`)).status, 200);
    } finally {
      await replaced.stop();
    }
  });

  it('a restore that fails part way changes nothing', async () => {
    const target = await freshStore();
    const server = await startServerProcess(env(target));
    const org = await createOrganization(httpClient(server.url));
    await server.stop();
    // Intact as a file, but its projects refer to organizations it no longer holds.
    const broken = path.join(folder, 'broken.backup');
    rewrite(
      file,
      broken,
      (lines) => {
        const at = lines.indexOf(JSON.stringify({ table: 'organizations' }));
        let end = at + 1;
        while (lines[end]!.startsWith('[')) end++;
        lines.splice(at + 1, end - at - 1);
        return lines;
      },
      (trailer) => ({ ...trailer, rows: { ...(trailer.rows as object), organizations: 0 } }),
    );
    assert.equal((await runVarsetd(['backup', 'verify', broken], env(target))).code, 0);
    const failed = await runVarsetd(['restore', '--from', broken, '--force'], env(target));
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /varsetd restore: failed, nothing changed: .*(foreign key|refer)/i);
    const kept = await startServerProcess(env(target));
    try {
      assert.equal((await httpClient(kept.url).get(`/api/v2/organizations/${org}`)).status, 200);
    } finally {
      await kept.stop();
    }
  });

  it('restore refuses a backup whose keys the keyring lacks, naming them, and changes nothing', async () => {
    const target = await freshStore();
    const refused = await runVarsetd(['restore', '--from', file], env(target, newKey()));
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `varsetd restore: refused, nothing changed: the keyring lacks keys the backup needs; missing: key ${KEY_ID}$`,
        'm',
      ),
    );
    assert.equal(await storeTables(target), 0);
    const unkeyed = await runVarsetd(
      ['restore', '--from', file],
      varsetdEnv(target, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }),
    );
    assert.equal(unkeyed.code, 1);
    assert.match(unkeyed.stderr, /varsetd restore: refused, nothing changed: no encryption key is configured/);
    assert.equal(await storeTables(target), 0);
  });

  it('a backup from before a key rotation restores after it, the old key retired', async () => {
    const target = await freshStore();
    assert.equal((await runVarsetd(['restore', '--from', file], env(target))).code, 0);
    const rotated = newKey();
    const rotation = await runVarsetd(['rotate-key', '--new-key', rotated], env(target));
    assert.equal(rotation.code, 0, rotation.stderr);
    const reseal = await runVarsetd(['rotate-key', '--reseal'], env(target, `${rotated},${KEY}`));
    assert.equal(reseal.code, 0, reseal.stderr);
    // Nothing uses the old key any more: it may be retired, and is kept for the backups older than that.
    const retire = await runVarsetd(['keys', 'retire', KEY_ID], env(target, `${rotated},${KEY}`));
    assert.equal(retire.code, 0, retire.stderr);
    const refused = await runVarsetd(['restore', '--from', file, '--force'], env(target, rotated));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`missing: key ${KEY_ID}$`, 'm'));
    const afterRotation = `${rotated},${KEY} retired`;
    const restored = await runVarsetd(['restore', '--from', file, '--force'], env(target, afterRotation));
    assert.equal(restored.code, 0, restored.stderr);
    const { sealed } = await contents(target);
    assert.ok(sealed.length > 0);
    for (const { key, value } of sealed)
      assert.equal(keyring(rotated, KEY).open(value), `secret-${Number(key.slice(1))}`);
    const server = await startServerProcess(env(target, afterRotation));
    try {
      const vars = await httpClient(server.url).get(`/api/v2/varsets/${varsetId}/relationships/vars`);
      assert.equal(vars.status, 200);
    } finally {
      await server.stop();
    }
    const verified = await runVarsetd(['backup', 'verify', file], env(target, afterRotation));
    assert.equal(verified.code, 0, verified.stderr);
  });

  it('restore migrates a backup of an older schema forward', async () => {
    const older = path.join(folder, 'older.backup');
    await withStoreMigratedTo('0017_varset_versions', async (store) => {
      await sql`insert into organizations (id, name, email, created_at, settings, search_name, search_email, user_tokens_enabled)
        values ('org-old', 'old', 'old@example.com', '2026-01-01T00:00:00.000Z', '{}', 'old', 'old@example.com', 1)`.execute(
        store.db,
      );
      await takeBackup(store, older, false);
    });
    const target = await freshStore();
    const restored = await runVarsetd(['restore', '--from', older], env(target));
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /applied migrations: 0018_audit_events, 0019_varset_notifications/);
    const opened = await openStore(target);
    try {
      const { rows } = await sql<{ name: string }>`select name from organizations`.execute(opened.db);
      assert.deepEqual(rows, [{ name: 'old' }]);
      const { rows: events } = await sql<{ n: number }>`select count(*) as n from audit_events`.execute(opened.db);
      assert.equal(Number(events[0]!.n), 0);
    } finally {
      await opened.close();
    }
  });

  it('restore refuses a backup of a schema newer than this varsetd knows', async () => {
    const newer = path.join(folder, 'newer.backup');
    rewrite(file, newer, (lines) => {
      const header = JSON.parse(lines[0]!);
      lines[0] = JSON.stringify({ ...header, migrations: [...header.migrations, '9999_future'] });
      return lines;
    });
    const target = await freshStore();
    const refused = await runVarsetd(['restore', '--from', newer], env(target));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /the backup's schema is newer than this varsetd knows \(9999_future\)/);
    assert.equal(await storeTables(target), 0);
  });

  it(
    'a backup of either store kind restores into the other',
    { skip: storeKind !== 'postgres' && 'needs PostgreSQL too' },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-test-'));
      const sqlite: TestStore = {
        databaseUrl: undefined,
        dataDir,
        dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
      };
      stores.push(sqlite);
      const intoSqlite = await runVarsetd(['restore', '--from', file], env(sqlite));
      assert.equal(intoSqlite.code, 0, intoSqlite.stderr);
      const fromSqlite = path.join(folder, 'from-sqlite.backup');
      assert.equal((await runVarsetd(['backup', '--to', fromSqlite], env(sqlite))).code, 0);
      const target = await freshStore();
      const intoPostgres = await runVarsetd(['restore', '--from', fromSqlite], env(target));
      assert.equal(intoPostgres.code, 0, intoPostgres.stderr);
      const inSqlite = await contents(sqlite);
      assert.ok(inSqlite.variables >= started);
      assert.deepEqual(await contents(target), inSqlite);
      const server = await startServerProcess(env(target));
      try {
        const client = httpClient(server.url);
        assert.equal(
          (await client.get(`/api/v2/varsets/${varsetId}/relationships/vars`)).body.meta.pagination['total-count'],
          inSqlite.variables,
        );
        assert.equal(
          (
            await client.post(
              `/api/v2/organizations/${organization}/varset-notification-configurations`,
              notification('after'),
            )
          ).status,
          201,
        );
      } finally {
        await server.stop();
      }
    },
  );
});

describe("backup's and restore's --help", () => {
  it('prints the command’s usage and options', async () => {
    const noStore = { dataDir: '/nonexistent/varsetd-data', databaseUrl: undefined };
    const expected: [string[], RegExp[]][] = [
      [
        ['backup', '--help'],
        [/^usage: varsetd backup --to FILE/, /varsetd backup verify FILE/, /--force/, /--database-url URL/],
      ],
      [
        ['backup', 'verify', '--help'],
        [/^usage: varsetd backup --to FILE/, /keyring/],
      ],
      [
        ['restore', '--help'],
        [/^usage: varsetd restore --from FILE/, /--force/, /--data-dir DIR/],
      ],
    ];
    for (const [args, patterns] of expected) {
      const { code, stdout } = await runVarsetd(args, varsetdEnv(noStore));
      assert.equal(code, 0);
      for (const pattern of patterns) assert.match(stdout, pattern, args.join(' '));
    }
    const global = await runVarsetd(['--help'], varsetdEnv(noStore));
    assert.match(global.stdout, /^ {2}backup --to FILE \[--force\] +\S/m);
    assert.match(global.stdout, /^ {2}restore --from FILE \[--force\] +\S/m);
  });
});

/** How many tables a store has (0: nothing was ever written to it); a SQLite store that is not there has none. */
async function storeTables(store: TestStore): Promise<number> {
  if (!store.databaseUrl && !fs.existsSync(path.join(store.dataDir, 'varsetd.sqlite'))) return 0;
  const opened = await openStore(store);
  try {
    const query =
      storeKind === 'postgres'
        ? sql<{ n: number }>`select count(*) as n from information_schema.tables where table_schema = current_schema()`
        : sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table'`;
    return Number((await query.execute(opened.db)).rows[0]!.n);
  } finally {
    await opened.close();
  }
}

/** Copies a backup with its lines (and trailer) changed, the checksum made to match: a file as another varsetd could write it. */
function rewrite(
  from: string,
  to: string,
  change: (lines: string[]) => string[],
  changeTrailer = (trailer: Record<string, unknown>) => trailer,
): void {
  const lines = zlib.gunzipSync(fs.readFileSync(from)).toString('utf8').trimEnd().split('\n');
  const trailer = changeTrailer(JSON.parse(lines.pop()!));
  const body = change(lines)
    .map((line) => `${line}\n`)
    .join('');
  trailer.sha256 = createHash('sha256').update(body).digest('hex');
  fs.writeFileSync(to, zlib.gzipSync(`${body}${JSON.stringify(trailer)}\n`));
}
