/**
 * The SQL of every store's statements, written to sql/<dialect>/<store>.sql so that a change to
 * a query shows in review as a change to its SQL. Opens a fresh database (SQLite; PostgreSQL too
 * when TEST_DATABASE_URL is set), migrates it, seeds a little data through the API, then runs
 * every case of scripts/sql-snapshot-cases.ts and records the statements each one sends.
 *   npm run sql:snapshots                                      # SQLite
 *   bash scripts/with-postgres.sh npm run sql:snapshots        # SQLite and PostgreSQL
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore, withoutParameterPropagation, type Dialect } from '../src/db/connect.js';
import { ADMIN_TOKEN } from '../test/support/requests.js';
import { createTestStore } from '../test/support/store.js';
import { CASES, DB_HELPERS, seed, type Case } from './sql-snapshot-cases.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SNAPSHOT_DIR = path.join(ROOT, 'sql');
const SCRIPT = 'npm run sql:snapshots';
export const UPDATE_COMMAND = `${SCRIPT} (and, for PostgreSQL, bash scripts/with-postgres.sh ${SCRIPT})`;

/** Every file whose SQL is kept: src/**\/*store.ts and the query helpers of src/db, relative to the root. */
export function snapshotFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (/store\.ts$/.test(entry.name)) found.push(relative);
    }
  };
  walk('src');
  return [...found, ...DB_HELPERS].sort();
}

/** The exported functions of a module, by name (classes aside). */
export async function exportedFunctions(file: string): Promise<string[]> {
  const module = (await import(pathToFileURL(path.join(ROOT, file)).href)) as Record<string, unknown>;
  const isFunction = (value: unknown) =>
    typeof value === 'function' && !Function.prototype.toString.call(value).startsWith('class');
  return Object.keys(module)
    .filter((name) => isFunction(module[name]))
    .sort();
}

/** A file's snapshot, relative to sql/<dialect>/: src/varsets/store.ts → varsets/store.sql. */
export function snapshotName(file: string): string {
  return file.replace(/^src\//, '').replace(/\.ts$/, '.sql');
}

/** Statements a transaction's harness sends around a case, not the case's own: with the schema check every write transaction starts with (src/db/schema-guard.ts). */
const HARNESS = /^(begin|commit|rollback)\b|^select name from kysely_migration where name > /i;

/** The snapshot files of one dialect, by name (see `snapshotName`), from a fresh database of the store the environment names. */
export async function generate(): Promise<{ dialect: Dialect; files: Map<string, string> }> {
  let recording: string[] | undefined;
  const onStatement = (sql: string) => {
    if (recording && !HARNESS.test(sql)) recording.push(sql);
  };
  const testStore = await createTestStore();
  const store = await openStore({ ...testStore, onStatement });
  try {
    await migrate(store);
    await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
    const app = await buildApp({ publicUrl: 'http://127.0.0.1:1', store, notifications: { deliver: false } });
    try {
      const seeded = await seed(app, store);
      const files = new Map<string, string>();
      for (const [file, cases] of Object.entries(CASES)) {
        // Run in the order written (a case may use rows an earlier one made), shown by function name.
        const sections: { fn: string; text: string }[] = [];
        for (const [fn, byCase] of Object.entries(cases as Record<string, Record<string, Case>>)) {
          for (const [name, run] of Object.entries(byCase)) {
            recording = [];
            try {
              await run(store, seeded);
            } catch (error) {
              throw new Error(`${file} ${fn} (${name}): ${(error as Error).message}`, { cause: error });
            } finally {
              const statements = recording.map((sql) =>
                store.dialect === 'sqlite' ? withoutParameterPropagation(sql) : sql,
              );
              recording = undefined;
              sections.push({
                fn,
                text: [
                  `-- ${fn}: ${name}`,
                  ...(statements.length ? statements.map((sql) => `${sql};`) : ['-- (no statement)']),
                ].join('\n'),
              });
            }
          }
        }
        files.set(
          snapshotName(file),
          `-- The SQL of ${file} on ${store.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, written by ${SCRIPT}.\n\n${sections
            .sort((a, b) => (a.fn < b.fn ? -1 : a.fn > b.fn ? 1 : 0))
            .map((section) => section.text)
            .join('\n\n')}\n`,
        );
      }
      return { dialect: store.dialect, files };
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    await testStore.dispose();
  }
}

async function main(): Promise<void> {
  const { dialect, files } = await generate();
  const dir = path.join(SNAPSHOT_DIR, dialect);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [name, text] of files) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  console.log(`wrote ${files.size} files to sql/${dialect}/`);
  if (dialect === 'postgres') {
    // with-postgres.sh gives one cluster: SQLite's files are written in the same run.
    delete process.env.TEST_DATABASE_URL;
    await main();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
