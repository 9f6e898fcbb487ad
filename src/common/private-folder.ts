import fs from 'node:fs';

/** The data folder holds the encryption key, the admin token and the SQLite store: its user's alone. */
export const PRIVATE_FOLDER = 0o700;

/**
 * Makes `folder`, and the parents it lacks, readable by this user only, whichever file varsetd is
 * about to write there first (the SQLite store, the key or the admin token). A folder that is
 * already there keeps its mode: it is the operator's.
 */
export function makePrivateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER });
}
