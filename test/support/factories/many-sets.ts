import type { Insertable } from 'kysely';
import { newId } from '../../../src/common/ids.js';
import type { Store } from '../../../src/db/connect.js';
import type { VarsetTable, VarsetVariableTable } from '../../../src/db/schema.js';
import { searchable } from '../../../src/db/search.js';

/**
 * Many sets of one organization at once, for tests of large organizations: written straight to
 * the store with multi-row inserts in one transaction (creating 10,000 sets through the API would
 * take minutes), non-global, owned by the organization, with the variables `keysOf` gives each.
 * The database keeps the organization's counts of sets as for any write (migration 0016).
 */
export async function insertManySets(
  store: Store,
  organizationId: string,
  count: number,
  keysOf: (index: number) => { key: string; category: 'terraform' | 'env' }[],
  namePrefix = 'bulk',
): Promise<string[]> {
  const at = new Date().toISOString();
  const sets: Insertable<VarsetTable>[] = [];
  const variables: Insertable<VarsetVariableTable>[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${namePrefix}-${String(i).padStart(5, '0')}`;
    const id = newId('varset');
    sets.push({
      id,
      organization_id: organizationId,
      project_id: null,
      name,
      search_name: searchable(name),
      description: '',
      global: false,
      priority: false,
      created_at: at,
      updated_at: at,
    });
    for (const { key, category } of keysOf(i)) {
      variables.push({
        id: newId('var'),
        varset_id: id,
        global_organization_id: null,
        key,
        value: 'x',
        description: '',
        category,
        hcl: false,
        sensitive: false,
        value_needed: false,
        version_id: newId('vv'),
        created_at: at,
      });
    }
  }
  const CHUNK = 500;
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < sets.length; i += CHUNK)
      await trx
        .insertInto('varsets')
        .values(sets.slice(i, i + CHUNK))
        .execute();
    for (let i = 0; i < variables.length; i += CHUNK)
      await trx
        .insertInto('varset_variables')
        .values(variables.slice(i, i + CHUNK))
        .execute();
  });
  return sets.map((s) => s.id);
}
