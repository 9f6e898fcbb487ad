import type { Store } from '../db/connect.js';
import { readSnapshot } from '../db/snapshot.js';
import { VERSION } from '../version.js';
import { BackupWriter, FORMAT, FORMAT_VERSION, type Header, type Trailer } from './file.js';
import { KeyCounter, keyInUse, replaceSealed, sealedPlaces } from './sealed.js';

/**
 * Writes a backup of `store` to `file`: every table read in one snapshot while servers keep
 * writing, into FILE.partial (mode 0600), renamed to FILE once complete. Without `force`, an
 * existing FILE is left alone and the backup refused.
 */
export async function takeBackup(
  store: Store,
  file: string,
  force: boolean,
): Promise<{ header: Header; trailer: Omit<Trailer, 'end' | 'sha256'> }> {
  const writer = BackupWriter.create(file, force);
  try {
    const result = await readSnapshot(store, async (snapshot) => {
      if (!snapshot.migrations.length) throw new Error('the store holds nothing: varsetd never ran on it');
      const header: Header = {
        format: FORMAT,
        formatVersion: FORMAT_VERSION,
        varsetdVersion: VERSION,
        store: store.dialect,
        takenAt: new Date().toISOString(),
        migrations: snapshot.migrations,
        tables: snapshot.tables,
      };
      await writer.line(header);
      const places = sealedPlaces(snapshot.tables);
      const inUse = keyInUse(snapshot.tables);
      const keys = new KeyCounter();
      const rows: Record<string, number> = {};
      for (const table of snapshot.tables) {
        await writer.line({ table: table.name });
        let count = 0;
        for await (const batch of snapshot.rows(table)) {
          for (const row of batch) {
            replaceSealed(places.get(table.name), row, (sealed) => (keys.add(sealed), sealed));
            const used = inUse(table.name, row);
            if (used) keys.need(used);
          }
          await writer.rows(batch);
          count += batch.length;
        }
        rows[table.name] = count;
      }
      return { header, trailer: { rows, keys: keys.uses() } };
    });
    await writer.finish(result.trailer);
    return result;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
