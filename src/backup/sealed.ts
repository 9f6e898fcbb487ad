import type { StoredValue, TableShape } from '../db/snapshot.js';
import { CHECK_NAME, IN_USE } from '../secrets/key.js';
import { createKeyring, sealedKeyId, type Keyring } from '../secrets/keyring.js';
import { readKeyring, type KeyringSettings } from '../secrets/keyring-file.js';
import { SealError } from '../secrets/sealer.js';
import { SEALED_COLUMNS } from '../secrets/store.js';
import type { KeyUse } from './file.js';

/** How a key is named to an operator. */
export function keyName(id: string | null): string {
  return id === null ? 'the key of the values sealed without a key id (v1)' : `key ${id}`;
}

interface SealedPlace {
  column: number;
  /** The row holds a sealed value only when this column is true (1), or when it names the key check. */
  when?: { column: number; equals?: string };
  /** The column holds a JSON object of sealed values. */
  map: boolean;
}

/** Where the rows of each table hold sealed values: SEALED_COLUMNS, and the key check among the settings. */
export function sealedPlaces(tables: TableShape[]): Map<string, SealedPlace[]> {
  const columns = [
    ...SEALED_COLUMNS.map((c) => ({ ...c, equals: undefined as string | undefined })),
    { table: 'settings', column: 'value', sealedWhen: 'name', equals: CHECK_NAME, map: false },
  ];
  const places = new Map<string, SealedPlace[]>();
  for (const c of columns) {
    const table = tables.find((t) => t.name === c.table);
    const column = table?.columns.indexOf(c.column) ?? -1;
    if (!table || column < 0) continue;
    const when = c.sealedWhen ? { column: table.columns.indexOf(c.sealedWhen), equals: c.equals } : undefined;
    places.set(table.name, [...(places.get(table.name) ?? []), { column, when, map: c.map === true }]);
  }
  return places;
}

/** Calls `visit` with each sealed value of `row`; the value it answers replaces the sealed one. */
export function replaceSealed(
  places: SealedPlace[] | undefined,
  row: StoredValue[],
  visit: (sealed: string) => string,
): void {
  for (const place of places ?? []) {
    const value = row[place.column];
    if (typeof value !== 'string') continue;
    if (place.when) {
      const flag = row[place.when.column];
      if (place.when.equals !== undefined ? flag !== place.when.equals : !flag) continue;
    }
    if (!place.map) {
      row[place.column] = visit(value);
      continue;
    }
    const entries = Object.entries(JSON.parse(value) as Record<string, string>);
    row[place.column] = JSON.stringify(Object.fromEntries(entries.map(([id, sealed]) => [id, visit(sealed)])));
  }
}

/** The key id a row of `settings` names as one the store's values may use (`encryption-keys/<id>`); undefined for any other row. */
export function keyInUse(tables: TableShape[]): (table: string, row: StoredValue[]) => string | undefined {
  const name = tables.find((t) => t.name === 'settings')?.columns.indexOf('name') ?? -1;
  return (table, row) => {
    const value = table === 'settings' && name >= 0 ? row[name] : undefined;
    return typeof value === 'string' && value.startsWith(IN_USE) ? value.slice(IN_USE.length) : undefined;
  };
}

/** Counts sealed values by the key id they name, and the keys the store records as used. */
export class KeyCounter {
  private readonly counts = new Map<string | null, number>();
  add(sealed: string): void {
    const id = sealedKeyId(sealed) ?? null;
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  }
  /** A key the store's values may use, though none may name it. */
  need(id: string): void {
    this.counts.set(id, this.counts.get(id) ?? 0);
  }
  uses(): KeyUse[] {
    return [...this.counts]
      .map(([id, values]) => ({ id, values }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }
}

/** The keyring a command opens sealed values with: the configured one (VARSETD_ENCRYPTION_KEY, else the key file), never generated; undefined when there is none. */
export function configuredKeyring(settings: KeyringSettings): Keyring | undefined {
  const { keys } = readKeyring(settings);
  return keys ? createKeyring(keys) : undefined;
}

/** Whether `keyring` opens `sealed`. */
export function opens(keyring: Keyring | undefined, sealed: string): boolean {
  if (!keyring) return false;
  try {
    keyring.open(sealed);
    return true;
  } catch (error) {
    if (error instanceof SealError) return false;
    throw error;
  }
}
