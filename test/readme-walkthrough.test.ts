import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, startServerProcess, varsetdEnv } from './support/processes.js';
import { createTestStore, storeKind } from './support/store.js';

const HEADING = '## From an empty server to a commented run';
/** The address the README's commands name; the test's server listens on a port of its own. */
const README_URL = 'http://127.0.0.1:8080';

/** The sh blocks of the README section under HEADING, in order, each without the indentation of its list item. */
function walkthroughCommands(readme: string): string[] {
  const start = readme.indexOf(`\n${HEADING}\n`);
  assert.ok(start >= 0, `the README has no section "${HEADING}"`);
  const next = readme.indexOf('\n## ', start + HEADING.length + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
    body!
      .split('\n')
      .map((line) => line.slice(indent!.length))
      .join('\n'),
  );
}

/**
 * The README's walk-through, run as written with bash, curl, tar and node against a fresh
 * varsetd in a folder of its own (so that `data/admin-token` is that server's), the only change
 * being the server's address.
 */
describe(`the README's walk-through to a commented run (${storeKind})`, () => {
  it('reaches a run with a comment, every step answered without an error', async () => {
    const blocks = walkthroughCommands(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    assert.ok(blocks.length >= 6, `only ${blocks.length} sh blocks`);
    const script = blocks.join('\n');
    assert.ok(script.includes(README_URL), `the commands do not name ${README_URL}`);

    const store = await createTestStore();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-walkthrough-'));
    const server = await startServerProcess(
      varsetdEnv({ dataDir: path.join(folder, 'data'), databaseUrl: store.databaseUrl }),
    );
    try {
      const { stdout, stderr } = await promisify(execFile)(
        'bash',
        ['-euo', 'pipefail', '-c', script.replaceAll(README_URL, server.url)],
        { cwd: folder },
      );
      assert.equal(stderr, '');
      assert.ok(!stdout.includes('"errors"'), stdout);
      assert.match(stdout, /^workspace ws-\w{16}$/m);
      assert.match(stdout, /^2$/m);
      assert.match(stdout, /^API_KEY = \(sensitive\) from varset, region = eu-west-1 from varset$/m);
      assert.ok(!stdout.includes('s3cret'), 'a sensitive value was printed');
      assert.match(stdout, /^uploaded$/m);
      assert.match(stdout, /^run run-\w{16}$/m);
      assert.match(stdout, /^created, commented$/m);

      // What the server holds, read independently of the script.
      const token = fs.readFileSync(path.join(folder, 'data', 'admin-token'), 'utf8').trim();
      const get = async (url: string) =>
        (await fetch(`${server.url}/api/v2${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
      const workspace = await get('/organizations/acme/workspaces/web');
      const runs = await get(`/workspaces/${workspace.data.id}/runs`);
      assert.equal(runs.data.length, 1);
      assert.equal(runs.data[0].attributes.message, 'First run');
      // Nothing reported a plan for it, so it stays pending, as the README says.
      assert.equal(runs.data[0].attributes.status, 'pending');
      const stored = await get(`/runs/${runs.data[0].id}/effective-variables`);
      assert.deepEqual(
        stored.data.map((v: any) => [v.id, v.attributes.value, v.attributes.source.varset?.name]),
        [
          ['env:API_KEY', null, 'defaults'],
          ['terraform:region', 'eu-west-1', 'defaults'],
        ],
      );
      const comments = await get(`/runs/${runs.data[0].id}/comments`);
      assert.deepEqual(
        comments.data.map((c: any) => c.attributes.body),
        ['The plan looks right to me.'],
      );
      assert.ok(stdout.includes('The plan looks right to me.'));
    } finally {
      await server.stop();
      await store.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
