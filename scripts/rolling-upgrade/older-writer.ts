import http from 'node:http';
import pg from 'pg';
import { send } from './load.js';

/**
 * Migration 0020 adds a flag that the previous release knows nothing of: a sensitive variable
 * that needs a value. While its servers still serve beside this build, one of them writing a
 * value to such a variable must end the need (the migration's trigger does), and writing only
 * its description must not. Two variables are flagged in the store, as `varsetd import` leaves
 * them; an older server writes each; this build's server reads them.
 */
export async function olderWriterCheck(
  databaseUrl: string,
  token: string,
  organization: string,
  olderPort: number,
  newerPort: number,
): Promise<{ summary: string; problems: string[] }> {
  const agent = new http.Agent({ keepAlive: true });
  const older = (method: string, path: string, body?: unknown) =>
    send(agent, `http://127.0.0.1:${olderPort}`, method, path, token, body);
  const newer = (path: string) => send(agent, `http://127.0.0.1:${newerPort}`, 'GET', path, token);
  const problems: string[] = [];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const set = await older('POST', `/api/v2/organizations/${organization}/varsets`, {
      data: { type: 'varsets', attributes: { name: 'older-writer', description: '', global: false } },
    });
    if (set.status !== 200) throw new Error(`creating the set: ${set.status} ${JSON.stringify(set.body)}`);
    const setId = (set.body as { data: { id: string } }).data.id;
    const ids: string[] = [];
    for (const key of ['FILLED', 'DESCRIBED']) {
      const made = await older('POST', `/api/v2/varsets/${setId}/relationships/vars`, {
        data: { type: 'vars', attributes: { key, category: 'env', sensitive: true } },
      });
      if (made.status !== 200) throw new Error(`adding ${key}: ${made.status} ${JSON.stringify(made.body)}`);
      ids.push((made.body as { data: { id: string } }).data.id);
    }
    const [filled, described] = ids as [string, string];
    await db.query('update varset_variables set value_needed = 1 where id = any($1)', [ids]);

    const path = (id: string) => `/api/v2/varsets/${setId}/relationships/vars/${id}`;
    const needed = async (id: string) => {
      const answer = await newer(path(id));
      if (answer.status !== 200) throw new Error(`reading ${id}: ${answer.status}`);
      return (
        (answer.body as { data: { attributes: Record<string, unknown> } }).data.attributes['value-needed'] === true
      );
    };
    if (!(await needed(filled)) || !(await needed(described))) problems.push('the flag set in the store is not shown');
    for (const [id, attributes] of [
      [filled, { value: 'written-by-the-previous-release' }],
      [described, { description: 'described by the previous release' }],
    ] as const) {
      const written = await older('PATCH', path(id), { data: { type: 'vars', attributes } });
      if (written.status !== 200) throw new Error(`writing ${id}: ${written.status} ${JSON.stringify(written.body)}`);
    }
    const filledNeeds = await needed(filled);
    const describedNeeds = await needed(described);
    if (filledNeeds) problems.push('a value written by the previous release left its variable needing one');
    if (!describedNeeds) problems.push('a description written by the previous release ended the need of a value');
    return {
      summary: `a value written ends the need of one (${filledNeeds ? 'NO' : 'yes'}), a description written keeps it (${describedNeeds ? 'yes' : 'NO'})`,
      problems,
    };
  } finally {
    await db.end();
    agent.destroy();
  }
}
