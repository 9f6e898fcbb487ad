import { DamagedBackupError, readBackup, type Header, type Trailer } from './file.js';
import type { Keyring } from '../secrets/keyring.js';
import { KeyCounter, keyInUse, opens, replaceSealed, sealedPlaces } from './sealed.js';

export interface KeyReport {
  /** The key id the values name; null for values sealed without one. */
  id: string | null;
  values: number;
  opened: number;
}

export interface Verification {
  header: Header;
  trailer: Trailer;
  rows: number;
  keys: KeyReport[];
  /** The key ids of values the keyring does not open, and of keys the store uses that it lacks. */
  missing: (string | null)[];
}

/**
 * Reads a whole backup, checking it as it goes (DamagedBackupError when it is not as written),
 * and tries every sealed value in it with `keyring`.
 */
export async function verifyBackup(file: string, keyring: Keyring | undefined): Promise<Verification> {
  let header: Header | undefined;
  let trailer: Trailer | undefined;
  let places: ReturnType<typeof sealedPlaces> = new Map();
  let inUse: ReturnType<typeof keyInUse> = () => undefined;
  const found = new KeyCounter();
  const opened = new KeyCounter();
  let rows = 0;
  for await (const entry of readBackup(file)) {
    if ('header' in entry) {
      header = entry.header;
      places = sealedPlaces(header.tables);
      inUse = keyInUse(header.tables);
    } else if ('rows' in entry) {
      rows += entry.rows.length;
      for (const row of entry.rows) {
        replaceSealed(places.get(entry.table.name), row, (sealed) => {
          found.add(sealed);
          if (opens(keyring, sealed)) opened.add(sealed);
          return sealed;
        });
        const used = inUse(entry.table.name, row);
        if (used) found.need(used);
      }
    } else trailer = entry.trailer;
  }
  const uses = found.uses();
  if (JSON.stringify(uses) !== JSON.stringify(trailer!.keys))
    throw new DamagedBackupError('the sealed values do not match the key ids the trailer records');
  const openedBy = new Map(opened.uses().map((use) => [use.id, use.values]));
  const report = uses.map((use) => ({ id: use.id, values: use.values, opened: openedBy.get(use.id) ?? 0 }));
  const lacking = (r: KeyReport) => r.opened < r.values || (r.id !== null && !keyring?.has(r.id));
  return { header: header!, trailer: trailer!, rows, keys: report, missing: report.filter(lacking).map((r) => r.id) };
}
