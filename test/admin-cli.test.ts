import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { runVarsetd, startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

const ADMIN = 'admin-cli-test-admin-token-0123456789abcdef';
const noStore = { dataDir: '/nonexistent/varsetd-data', databaseUrl: undefined };

describe("each command's --help", () => {
  it('prints that command’s usage and options, not the global help', async () => {
    const global = await runVarsetd(['--help'], varsetdEnv(noStore));
    assert.equal(global.code, 0);
    const expected: Record<string, RegExp[]> = {
      tokens: [
        /--organization ORG/,
        /--team ORG\/TEAM/,
        /--site-admin/,
        /--expires-at TIME/,
        /--json/,
        /revoke TOKEN_ID/,
        /--database-url URL/,
      ],
      organizations: [/create NAME --email EMAIL/, /--json/, /--data-dir DIR/],
      serve: [/--tls-cert FILE/, /--workers N/],
      migrate: [/--database-url URL/],
      'rotate-key': [/--new-key KEY/],
      exec: [/--workspace ORG\/WORKSPACE/, /--dry-run/],
      export: [/--organization ORG/, /--format json/, /--format tf/, /--out DIR/, /--database-url URL/],
      import: [
        /--from URL\|DIR/,
        /--token-file FILE/,
        /--into ORG/,
        /--no-create/,
        /--values FILE/,
        /--dry-run/,
        /--json/,
      ],
    };
    for (const [command, options] of Object.entries(expected)) {
      for (const help of command === 'tokens' ? ['--help', '-h'] : ['--help']) {
        const { code, stdout, stderr } = await runVarsetd([command, help], varsetdEnv(noStore));
        assert.equal(code, 0, `${command} ${help}: ${stderr}`);
        assert.match(stdout, new RegExp(`^usage: varsetd ${command}`), `${command} ${help}`);
        assert.notEqual(stdout, global.stdout);
        assert.doesNotMatch(stdout, /\ncommands:\n/, `${command} ${help} printed the global help`);
        for (const option of options) assert.match(stdout, option, `${command} ${help}`);
      }
    }
    // The global help names the new commands, and `varsetd help COMMAND` is the command's help.
    assert.match(global.stdout, /^ {2}tokens create\|list\|revoke +\S/m);
    assert.match(global.stdout, /^ {2}organizations create\|list +\S/m);
    assert.match(global.stdout, /^ {2}export --organization ORG +\S/m);
    assert.match(global.stdout, /^ {2}import --from URL\|DIR +\S/m);
    assert.equal(
      (await runVarsetd(['help', 'tokens'], varsetdEnv(noStore))).stdout,
      (await runVarsetd(['tokens', '--help'], varsetdEnv(noStore))).stdout,
    );
  });
});

describe(`varsetd tokens and organizations on the store of a running server (${storeKind})`, () => {
  let store: TestStore;
  let server: ServerProcess;
  const varsetd = (...args: string[]) => runVarsetd(args, varsetdEnv(store));
  const call = async (token: string, path: string) =>
    fetch(`${server.url}/api/v2${path}`, { headers: { authorization: `Bearer ${token}` } });

  before(async () => {
    store = await createTestStore();
    server = await startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN }));
  });
  after(async () => {
    try {
      await server.stop();
    } finally {
      await store.dispose();
    }
  });

  /** Runs a command that must succeed, answering its output. */
  const succeed = async (...args: string[]) => {
    const { code, stdout, stderr } = await varsetd(...args);
    assert.equal(code, 0, `${args.join(' ')}: ${stderr}`);
    return stdout;
  };

  it('creates an organization and its tokens, which the running server takes at once', async () => {
    assert.equal(await succeed('organizations', 'create', 'acme', '--email', 'ops@example.com'), 'acme\n');
    assert.equal((await call(ADMIN, '/organizations/acme')).status, 200);
    const listed = JSON.parse(await succeed('organizations', 'list', '--json'));
    assert.deepEqual(
      listed.map((o: { name: string; email: string }) => [o.name, o.email]),
      [['acme', 'ops@example.com']],
    );

    const organizationToken = await succeed('tokens', 'create', '--organization', 'acme');
    assert.match(organizationToken, /^[A-Za-z0-9]{64}\n$/, 'only the token, on one line');
    assert.equal((await call(organizationToken.trim(), '/organizations/acme/workspaces')).status, 200);

    const team = JSON.parse(
      await succeed('tokens', 'create', '--team', 'acme/owners', '--description', 'CI', '--json'),
    );
    assert.equal(team.kind, 'team');
    assert.equal(team.organization, 'acme');
    assert.equal(team.team, 'owners');
    assert.equal(team.description, 'CI');
    assert.equal((await call(team.token, '/organizations/acme/workspaces')).status, 200);
    // The API shows the same token, made by the command line acting as the site administrator.
    const shown = await (await call(ADMIN, `/authentication-tokens/${team.id}`)).json();
    assert.equal(shown.data.attributes.description, 'CI');
    assert.equal(shown.data.attributes.token, null);

    // A new organization token replaces the previous one, as the API's does.
    const replacement = (await succeed('tokens', 'create', '--organization', 'acme')).trim();
    assert.equal((await call(organizationToken.trim(), '/organizations/acme/workspaces')).status, 401);
    assert.equal((await call(replacement, '/organizations/acme/workspaces')).status, 200);
  });

  it('lists tokens by id, kind and owner, never a secret', async () => {
    const secrets = [
      (await succeed('tokens', 'create', '--team', 'acme/owners')).trim(),
      (await succeed('tokens', 'create', '--site-admin', '--description', 'automation')).trim(),
      (await succeed('tokens', 'create', '--organization', 'acme')).trim(),
    ];
    const text = await succeed('tokens', 'list');
    const json = await succeed('tokens', 'list', '--json');
    for (const secret of [...secrets, ADMIN]) {
      assert.ok(!text.includes(secret), 'list printed a token');
      assert.ok(!json.includes(secret), 'list --json printed a token');
    }
    const tokens = JSON.parse(json) as {
      id: string;
      kind: string;
      organization: string | null;
      team: string | null;
      description: string;
    }[];
    assert.ok(tokens.every((t) => /^at-[A-Za-z0-9]{16}$/.test(t.id) && !('token' in t)));
    assert.ok(tokens.some((t) => t.kind === 'site-admin' && t.description === 'automation' && t.organization === null));
    assert.ok(
      tokens.some(
        (t) => t.kind === 'team' && t.organization === 'acme' && t.team === 'owners' && t.description === 'CI',
      ),
    );
    assert.equal(
      tokens.filter((t) => t.kind === 'organization').length,
      1,
      'the replaced organization tokens are gone',
    );
    for (const t of tokens) assert.match(text, new RegExp(`^${t.id} +${t.kind} `, 'm'));
    const acme = JSON.parse(await succeed('tokens', 'list', '--organization', 'acme', '--json')) as { kind: string }[];
    assert.ok(acme.length > 0 && acme.every((t) => t.kind !== 'site-admin'));
  });

  it('revokes a token: the running server refuses it from the next request', async () => {
    for (const owner of [
      ['--team', 'acme/owners', '--description', 'short-lived'],
      ['--site-admin'],
      ['--organization', 'acme'],
    ]) {
      const created = JSON.parse(await succeed('tokens', 'create', ...owner, '--json'));
      const path = owner[0] === '--site-admin' ? '/organizations' : '/organizations/acme/workspaces';
      // Used first, so that the server keeps its subject.
      assert.equal((await call(created.token, path)).status, 200);
      assert.equal((await call(created.token, path)).status, 200);
      assert.equal(await succeed('tokens', 'revoke', created.id), `revoked ${created.kind} token ${created.id}\n`);
      assert.equal((await call(created.token, path)).status, 401, `${owner[0]} token still works`);
    }
  });

  it('refuses bad input with exit code 2 and one line, changing nothing', async () => {
    const before = {
      organizations: await succeed('organizations', 'list', '--json'),
      tokens: await succeed('tokens', 'list', '--json'),
    };
    const refusals: [string[], RegExp][] = [
      [['organizations', 'create', 'bad name', '--email', 'ops@example.com'], /name has an invalid format/],
      [['organizations', 'create', 'acme', '--email', 'ops@example.com'], /name has already been taken/],
      [['organizations', 'create', 'other', '--email', 'not-an-email'], /email has an invalid format/],
      [['organizations', 'create', 'other'], /email can't be blank/],
      [
        ['organizations', 'create', 'other', '--email', 'ops@example.com', '--colour', 'red'],
        /unknown option --colour/,
      ],
      [['tokens', 'create', '--organization', 'nope'], /organization nope not found/],
      [['tokens', 'create', '--team', 'acme/nope'], /team acme\/nope not found/],
      [['tokens', 'create', '--team', 'acme/owners', '--description', 'CI'], /description has already been taken/],
      [
        ['tokens', 'create', '--organization', 'acme', '--expires-at', '2001-01-01T00:00:00Z'],
        /expired-at must be in the future/,
      ],
      [['tokens', 'create', '--organization', 'acme', '--expires-at', 'tomorrow'], /expired-at has an invalid format/],
      [['tokens', 'create', '--organization', 'acme', '--site-admin'], /exactly one of/],
      [
        ['tokens', 'create', '--site-admin', '--description', 'site-admin token from VARSETD_ADMIN_TOKEN'],
        /kept for the token each start settles/,
      ],
      [['tokens', 'revoke', 'at-0000000000000000'], /token at-0000000000000000 not found/],
      [['tokens', 'frobnicate'], /unknown subcommand frobnicate/],
      [['tokens', 'list', '--port', 'eighty'], /PORT must be/],
    ];
    for (const [args, message] of refusals) {
      const { code, stdout, stderr } = await varsetd(...args);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.equal(stdout, '');
      assert.match(stderr, message, args.join(' '));
      assert.match(stderr, /^varsetd (tokens|organizations): [^\n]+\n$/, `${args.join(' ')}: not one line`);
    }
    assert.deepEqual(
      {
        organizations: await succeed('organizations', 'list', '--json'),
        tokens: await succeed('tokens', 'list', '--json'),
      },
      before,
    );
  });

  it('records every write in the audit trail as made by the command line', async () => {
    const response = await call(ADMIN, '/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=acme');
    assert.equal(response.status, 200);
    const { data } = (await response.json()) as {
      data: { auth: Record<string, unknown>; request: { id: unknown }; resource: { type: string; action: string } }[];
    };
    const user = os.userInfo().username;
    const writes = data.map((e) => `${e.resource.type} ${e.resource.action}`);
    assert.ok(writes.includes('organization create'), writes.join(', '));
    assert.ok(writes.includes('authentication_token create'));
    assert.ok(writes.includes('authentication_token destroy'));
    for (const event of data) {
      assert.deepEqual(event.auth.type, 'CommandLine');
      assert.equal(event.auth.accessor_id, user);
      assert.equal(event.auth.description, `command line (user ${user})`);
      assert.equal(event.request.id, null);
    }
  });
});
