import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestApp } from './support/app.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * Every byte of the documents varsetd answers, as a client reads them, against the ones kept in
 * test/fixtures/documents.txt, the same on both stores. Ids and times differ from run to run: each id is replaced by
 * its order of first appearance (so are a variable's version hashes) and each time by a mark, so anything else that changes (a field,
 * its order, a space) fails. `UPDATE_DOCUMENTS=1` writes the file again.
 */
const golden = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'documents.txt');

const ID = /\b[a-z]+-[1-9A-HJ-NP-Za-km-z]{16}\b/g;
const HASH = /\b[0-9a-f]{40}\b/g;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

function normalizer() {
  const seen = new Map<string, string>();
  return (text: string) =>
    text
      .replace(ID, (id) => {
        if (!seen.has(id)) seen.set(id, `<${id.slice(0, id.indexOf('-'))} ${seen.size + 1}>`);
        return seen.get(id)!;
      })
      .replace(HASH, (hash) => {
        if (!seen.has(hash)) seen.set(hash, `<hash ${seen.size + 1}>`);
        return seen.get(hash)!;
      })
      .replace(TIME, '<time>');
}

describe(`documents answered (${storeKind})`, () => {
  for (const cache of ['off', 'on'] as const)
    it(`are byte for byte the ones kept, response cache ${cache}`, () => answersKept(cache));
});

/** With the cache on, each read is asked twice: the second (a hit) must be the first's bytes. */
async function answersKept(cache: 'off' | 'on'): Promise<void> {
  const t = await TestApp.start(cache === 'off' ? { responseCacheSize: 0 } : {});
  const lines: string[] = [];
  const normalize = normalizer();
  const send = async (method: string, url: string, body?: unknown) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body !== undefined ? { 'content-type': 'application/vnd.api+json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    lines.push(`${method} ${normalize(url)} -> ${res.statusCode} ${res.headers['content-type'] ?? ''}`);
    lines.push(normalize(res.body), '');
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    if (cache === 'on' && method === 'GET') {
      const again = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      assert.equal(again.body, res.body, `${url} again`);
    }
    return res.body === '' ? undefined : JSON.parse(res.body);
  };
  try {
    const org = 'documents-org';
    await send('POST', '/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: org, email: 'documents@example.com' } },
    });
    const project = (
      await send('POST', `/api/v2/organizations/${org}/projects`, {
        data: { type: 'projects', attributes: { name: 'platform' } },
      })
    ).data.id;
    const workspaces: string[] = [];
    for (const name of ['app-dev', 'app-prod', 'lone']) {
      const relationships =
        name === 'lone' ? {} : { relationships: { project: { data: { type: 'projects', id: project } } } };
      const ws = await send('POST', `/api/v2/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name }, ...relationships },
      });
      workspaces.push(ws.data.id);
    }
    const variable = (key: string, extra: Record<string, unknown> = {}) => ({
      type: 'vars',
      attributes: { key, value: `${key}-value`, category: 'terraform', ...extra },
    });
    const set = async (name: string, attributes: Record<string, unknown>, relationships: Record<string, unknown>) =>
      (
        await send('POST', `/api/v2/organizations/${org}/varsets`, {
          data: { type: 'varsets', attributes: { name, description: `${name} set`, ...attributes }, relationships },
        })
      ).data.id as string;
    const global = await set(
      'common',
      { global: true },
      {
        vars: {
          data: [
            variable('region'),
            variable('AWS_PROFILE', { category: 'env' }),
            variable('secret', { sensitive: true }),
          ],
        },
      },
    );
    const priority = await set(
      'overrides',
      { priority: true },
      {
        workspaces: { data: [{ type: 'workspaces', id: workspaces[1] }] },
        vars: { data: [variable('region', { value: 'us-east-1' }), variable('tags', { hcl: true, value: '{a=1}' })] },
      },
    );
    const projectSet = await set(
      'project-wide',
      {},
      {
        projects: { data: [{ type: 'projects', id: project }] },
        workspaces: { data: [{ type: 'workspaces', id: workspaces[2] }] },
        vars: { data: [variable('size', { description: 'instance size' })] },
      },
    );
    const added = await send('POST', `/api/v2/varsets/${projectSet}/relationships/vars`, {
      data: variable('count', { value: '3', hcl: true }),
    });
    await send('PATCH', `/api/v2/varsets/${projectSet}/relationships/vars/${added.data.id}`, {
      data: { type: 'vars', attributes: { value: '4', description: 'how many' } },
    });
    await send('PATCH', `/api/v2/varsets/${priority}?include=vars`, {
      data: { type: 'varsets', attributes: { description: 'wins everywhere it is assigned' } },
    });
    await send('POST', `/api/v2/varsets/${global}/relationships/vars`, { data: variable('doomed') });
    const doomed = (await send('GET', `/api/v2/varsets/${global}/relationships/vars`)).data.find(
      (v: { attributes: { key: string } }) => v.attributes.key === 'doomed',
    ).id;
    await send('DELETE', `/api/v2/varsets/${global}/relationships/vars/${doomed}`);

    for (const id of [global, priority, projectSet]) {
      await send('GET', `/api/v2/varsets/${id}`);
      await send('GET', `/api/v2/varsets/${id}?include=vars`);
    }
    for (const ws of workspaces) {
      await send('GET', `/api/v2/workspaces/${ws}/varsets`);
      await send('GET', `/api/v2/workspaces/${ws}/effective-variables`);
    }
    await send('GET', `/api/v2/workspaces/${workspaces[1]}/varsets?page%5Bsize%5D=1&page%5Bnumber%5D=2`);
    await send('GET', `/api/v2/workspaces/${workspaces[1]}/all-vars`);
    await send('GET', `/api/v2/workspaces/${workspaces[1]}/effective-variables?explain=true`);
    await send('GET', `/api/v2/projects/${project}/varsets`);
    for (const query of [
      '',
      '?include=vars',
      '?q=o',
      '?filter%5Bglobal%5D=false',
      '?filter%5Bpriority%5D=true',
      '?sort=-name',
      '?sort=var-count',
      '?page%5Bsize%5D=2&page%5Bnumber%5D=2',
      '?filter%5Bvar%5D%5Bkey%5D=region',
    ])
      await send('GET', `/api/v2/organizations/${org}/varsets${query}`);

    const text = lines.join('\n');
    if (process.env.UPDATE_DOCUMENTS === '1') {
      fs.writeFileSync(golden, text);
    }
    const kept = fs.readFileSync(golden, 'utf8');
    const keptLines = kept.split('\n');
    const first = lines.findIndex((line, i) => line !== keptLines[i]);
    assert.ok(
      text === kept,
      `documents differ from ${path.basename(golden)}, first at line ${first + 1}:\n- ${keptLines[first]}\n+ ${lines[first]}`,
    );
  } finally {
    await t.close();
  }
}
