import pg from 'pg';
import type { LoadRecord } from './load.js';

export interface Verdict {
  /** Acknowledged writes whose effect is not in the store: a set or variable missing, a deleted variable still there, a value not the one written. */
  lost: string[];
  /** Sets whose version numbers are not 1, 2 … n. */
  gaps: string[];
  /** The clients' sets whose number of versions is not their acknowledged writes (a write made twice, or one not acknowledged yet made). */
  uncounted: string[];
  setsChecked: number;
  versionsChecked: number;
}

/**
 * Reads the store itself, not through varsetd: every acknowledged write must be there, and
 * every set's versions (the clients' and any other) must be numbered 1 to n without a gap.
 */
export async function verifyStore(databaseUrl: string, record: LoadRecord): Promise<Verdict> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const setIds = [...record.sets.keys()];
    const lost: string[] = [];
    const { rows: sets } = await db.query<{ id: string }>('select id from varsets where id = any($1)', [setIds]);
    const present = new Set(sets.map((row) => row.id));
    for (const id of setIds) if (!present.has(id)) lost.push(`set ${id} (created) is missing`);

    const { rows: variables } = await db.query<{ id: string; varset_id: string; key: string; value: string }>(
      'select id, varset_id, key, value from varset_variables where varset_id = any($1)',
      [setIds],
    );
    const stored = new Map(variables.map((row) => [row.id, row]));
    for (const variable of record.variables) {
      const row = stored.get(variable.id);
      if (variable.deleted) {
        if (row) lost.push(`variable ${variable.id} (deleted) is still in set ${variable.varsetId}`);
      } else if (!row)
        lost.push(`variable ${variable.id} (${variable.key}, added) is missing from set ${variable.varsetId}`);
      else if (row.varset_id !== variable.varsetId || row.key !== variable.key || row.value !== variable.value)
        lost.push(`variable ${variable.id} is not as written: ${JSON.stringify(row)}`);
    }

    const { rows: versions } = await db.query<{ varset_id: string; numbers: number[] }>(
      'select varset_id, array_agg(number order by number) as numbers from varset_versions group by varset_id',
    );
    const gaps: string[] = [];
    const uncounted: string[] = [];
    let versionsChecked = 0;
    for (const { varset_id, numbers } of versions) {
      versionsChecked += numbers.length;
      if (numbers.some((number, i) => Number(number) !== i + 1)) gaps.push(`${varset_id}: ${numbers.join(',')}`);
      const writes = record.sets.get(varset_id)?.writes;
      if (writes !== undefined && writes !== numbers.length)
        uncounted.push(`${varset_id}: ${numbers.length} versions for ${writes} acknowledged writes`);
    }
    const versioned = new Set(versions.map((row) => row.varset_id));
    for (const id of setIds) if (!versioned.has(id)) uncounted.push(`${id}: no version`);
    return { lost, gaps, uncounted, setsChecked: versions.length, versionsChecked };
  } finally {
    await db.end();
  }
}
