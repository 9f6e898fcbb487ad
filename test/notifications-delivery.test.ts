import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { KyselyPlugin } from 'kysely';
import type { Context } from '../src/auth/context.js';
import { commandLineSubject } from '../src/auth/subject.js';
import { updateVarset } from '../src/varsets/service.js';
import { TestApp } from './support/app.js';
import { ownersTeam, teamToken } from './support/factories/access.js';
import { assign, createVar, createVarset } from './support/factories/varsets.js';
import { FAST_DELIVERY, Receiver, sleep, type Received } from './support/notifications.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const TYPE = 'varset-notification-configurations';
const ALL_TRIGGERS = ['varset:created', 'varset:changed', 'varset:deleted', 'varset:rolled-back'];

describe(`delivering notifications of set changes (${storeKind})`, () => {
  /** Writes only: no deliverer of its own, as a process that stopped. */
  let t: TestApp;
  let receiver: Receiver;
  const running: TestApp[] = [];

  before(async () => {
    t = await TestApp.start({ notifications: { allowPrivateAddresses: true } });
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    while (running.length) await running.pop()!.close();
    receiver.answer = () => ({ status: 200, body: 'ok' });
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  /** Another process on the database that sends the queue, with the same encryption key. */
  async function deliveringProcess(options: Partial<typeof FAST_DELIVERY> & { batch?: number } = {}): Promise<TestApp> {
    const app = await t.sibling(undefined, {
      sealer: t.app.sealer,
      notifications: { allowPrivateAddresses: true, deliver: { ...FAST_DELIVERY, ...options } },
    });
    running.push(app);
    await app.app.ready();
    return app;
  }

  async function configure(org: string, attributes: Record<string, unknown> = {}): Promise<string> {
    const res = await t.post(`/api/v2/organizations/${org}/${TYPE}`, {
      data: {
        type: TYPE,
        attributes: {
          name: 'receiver',
          'destination-type': 'generic',
          url: receiver.url,
          enabled: true,
          triggers: ALL_TRIGGERS,
          ...attributes,
        },
      },
    });
    expectStatus(res, 201);
    return res.body.data.id;
  }

  const forSet = (setId: string) => receiver.received.filter((r) => r.json.varset?.id === setId);

  it('sends each change once, signed, naming the set, the version, the actor and the request, with no value', async () => {
    const org = await t.createOrganization();
    const owners = await teamToken(t, await ownersTeam(t, org), { description: 'release pipeline' });
    await configure(org, { token: 'marker-configuration-token' });
    const projectId = await t.createProject(org);
    const [w1, w2] = [await t.createWorkspace(org), await t.createWorkspace(org, { projectId })];
    await t.createWorkspace(org, { projectId });
    await deliveringProcess();
    const start = receiver.received.length;

    const set = await createVarset(t, org, {
      attributes: { name: 'deploy' },
      vars: [
        { key: 'PLAIN', value: 'marker-plain-value' },
        { key: 'SECRET', value: 'marker-sensitive-value', sensitive: true },
      ],
    });
    await assign(t, set.id, 'workspaces', [w1, w2]);
    await assign(t, set.id, 'projects', [projectId]);
    const update = await t.patch(
      `/api/v2/varsets/${set.id}`,
      { data: { type: 'varsets', attributes: { description: 'marker-description' } } },
      { token: owners },
    );
    expectStatus(update, 200);
    const sensitiveId = set.relationships.vars.data.find((v: any) => v.id).id;
    await createVar(t, set.id, { key: 'ANOTHER', value: 'marker-another-value', sensitive: true });
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}/relationships/vars/${sensitiveId}`, {
        data: { type: 'vars', attributes: { value: 'marker-new-value' } },
      }),
      200,
    );
    expectStatus(await t.delete(`/api/v2/varsets/${set.id}`), 204);
    await receiver.until(start + 7);
    await sleep(200);
    const received = forSet(set.id);
    assert.deepEqual(
      received.map((r) => [r.json.version.number, r.json.trigger]),
      [
        [1, 'varset:created'],
        [2, 'varset:changed'],
        [3, 'varset:changed'],
        [4, 'varset:changed'],
        [5, 'varset:changed'],
        [6, 'varset:changed'],
        [7, 'varset:deleted'],
      ],
    );
    for (const request of received) {
      assert.equal(
        request.headers['x-tfe-notification-signature'],
        createHmac('sha512', 'marker-configuration-token').update(request.body).digest('hex'),
      );
      assert.equal(request.headers['content-type'], 'application/json');
      assert.doesNotMatch(request.body, /marker-/, 'no value and no token is ever sent');
      assert.doesNotMatch(JSON.stringify(request.headers), /marker-/);
    }
    const byNumber = (n: number) => received.find((r) => r.json.version.number === n)!.json;
    const created = byNumber(1);
    assert.deepEqual(created.varset, { id: set.id, name: 'deploy', organization: org });
    assert.deepEqual(created.version.action, 'create');
    assert.equal(created.version.cause, null);
    assert.equal(created.workspace_count, 0);
    assert.deepEqual(
      created.changes
        .filter((c: any) => c.target === 'variable')
        .map((c: any) => [c.key, c.action, c.sensitive, Object.keys(c).sort().join()]),
      [
        ['PLAIN', 'added', false, 'action,category,id,key,sensitive,target'],
        ['SECRET', 'added', true, 'action,category,id,key,sensitive,target'],
      ].sort(),
    );
    assert.deepEqual(
      created.changes.find((c: any) => c.target === 'varset' && c.field === 'name'),
      { target: 'varset', action: 'changed', field: 'name' },
    );
    // Two workspaces assigned, then the project with two workspaces of which one is already there: three.
    assert.equal(byNumber(2).workspace_count, 2);
    assert.equal(byNumber(3).workspace_count, 3);
    const updated = byNumber(4);
    assert.deepEqual(updated.actor, {
      description: 'team owners (token "release pipeline")',
      token_id: updated.actor.token_id,
      kind: 'team',
      team_id: updated.actor.team_id,
    });
    assert.match(updated.actor.token_id, /^at-/);
    assert.equal(updated.request_id, update.headers['x-request-id']);
    assert.deepEqual(updated.changes, [{ target: 'varset', action: 'changed', field: 'description' }]);
    assert.deepEqual(byNumber(6).changes, [
      {
        target: 'variable',
        id: sensitiveId,
        key: byNumber(6).changes[0].key,
        category: 'terraform',
        action: 'changed',
        field: 'value',
      },
    ]);
    assert.equal(byNumber(7).workspace_count, 0);
    assert.equal(byNumber(7).version.action, 'delete');
  });

  it("tells why a version was written when its writer said so (an import's source)", async () => {
    const org = await t.createOrganization();
    await configure(org);
    await deliveringProcess();
    const start = receiver.received.length;
    const set = await createVarset(t, org, { attributes: { name: 'imported' } });
    const ctx: Context = {
      store: t.store,
      subject: commandLineSubject('importer'),
      sealer: t.app.sealer,
      requestId: randomUUID(),
      cause: 'import from https://app.terraform.io',
    };
    await updateVarset(ctx, set.id, { description: 'from HCP Terraform', variables: [] });
    await receiver.until(start + 2);
    const [created, imported] = forSet(set.id).map((r) => r.json);
    assert.equal(created!.version.cause, null);
    assert.equal(imported!.version.cause, 'import from https://app.terraform.io');
  });

  it('sends a rollback as varset:rolled-back, a Slack message to a Slack destination, and only what the triggers ask for', async () => {
    const org = await t.createOrganization();
    await configure(org, { triggers: ['varset:rolled-back', 'varset:deleted'] });
    const slack = await configure(org, {
      'destination-type': 'slack',
      triggers: ['varset:created'],
      token: 'slack-is-never-signed',
    });
    await configure(org, { enabled: false });
    await deliveringProcess();
    const set = await createVarset(t, org, {
      attributes: { name: 'a <b> & c' },
      vars: [{ key: 'K', value: 'marker-slack-value' }],
    });
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: { description: 'changed' } } }),
      200,
    );
    const first = (await t.get(`/api/v2/varsets/${set.id}/versions`)).body.data.at(-1);
    // A dry run is taken back, and what it would have queued with it.
    expectStatus(
      await t.post(`/api/v2/varsets/${set.id}/actions/rollback?dry-run=true`, {
        data: { type: 'varset-versions', id: first.id },
      }),
      200,
    );
    expectStatus(
      await t.post(`/api/v2/varsets/${set.id}/actions/rollback`, { data: { type: 'varset-versions', id: first.id } }),
      200,
    );
    await sleep(600);
    const generic = receiver.received.filter((r) => r.json.varset?.id === set.id);
    assert.deepEqual(
      generic.map((r) => [r.json.trigger, r.json.version.rolled_back_to]),
      [['varset:rolled-back', 1]],
    );
    const messages = receiver.received.filter(
      (r) => typeof r.json.text === 'string' && r.json.text.includes('a &lt;b&gt; &amp; c'),
    );
    assert.equal(messages.length, 1);
    const [message] = messages as [Received];
    assert.match(message.json.text, /^Variable set "a &lt;b&gt; &amp; c" created: /);
    assert.equal(message.json.blocks[0].type, 'section');
    assert.match(message.json.blocks[1].text.text, /variable K \(terraform\) added/);
    assert.equal(message.headers['x-tfe-notification-signature'], undefined);
    assert.doesNotMatch(message.body, /marker-/);
    const responses = (await t.get(`/api/v2/${TYPE}/${slack}`)).body.data.attributes['delivery-responses'];
    assert.deepEqual(
      responses.map((r: any) => [r['varset-id'], r['version-number'], r.attempt, r.code, r.successful]),
      [[set.id, 1, 1, 200, true]],
    );
  });

  it('tries again after a 500 and after a timeout, and records each attempt', async () => {
    const org = await t.createOrganization();
    const configuration = await configure(org);
    const set = await createVarset(t, org);
    let calls = 0;
    receiver.answer = (request) => {
      if (request.json.varset?.id !== set.id) return { status: 200 };
      calls++;
      return calls === 1 ? { status: 500, body: 'down' } : calls === 2 ? 'hang' : { status: 204 };
    };
    const started = Date.now();
    await deliveringProcess({ timeoutMs: 300 });
    while (forSet(set.id).length < 3 && Date.now() - started < 10_000) await sleep(20);
    await sleep(200);
    const attempts = forSet(set.id);
    assert.equal(attempts.length, 3);
    assert.ok(
      attempts.every((a) => a.body === attempts[0]!.body),
      'every attempt sends the same body',
    );
    const responses = (await t.get(`/api/v2/${TYPE}/${configuration}`)).body.data.attributes['delivery-responses'];
    assert.deepEqual(
      responses.map((r: any) => [r.attempt, r.code, r.successful, r.body]),
      [
        [3, 204, true, ''],
        [2, null, false, ''],
        [1, 500, false, 'down'],
      ],
    );
    assert.match(responses[1].error, /no response within 300 ms/);
  });

  it('gives up after the last attempt, marks it failed, and sends the next change of the set', async () => {
    const org = await t.createOrganization();
    const configuration = await configure(org);
    const set = await createVarset(t, org);
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: { description: 'second' } } }),
      200,
    );
    receiver.answer = (request) => (request.json.version?.number === 1 ? { status: 503 } : { status: 200 });
    await deliveringProcess();
    const started = Date.now();
    while (forSet(set.id).length < 5 && Date.now() - started < 10_000) await sleep(20);
    await sleep(200);
    assert.deepEqual(
      forSet(set.id).map((r) => r.json.version.number),
      [1, 1, 1, 1, 2],
    );
    const attempts = (await t.get(`/api/v2/${TYPE}/${configuration}`)).body.data.attributes['delivery-responses'].map(
      (r: any) => [r['version-number'], r.attempt, r.successful],
    );
    assert.deepEqual(attempts, [
      [2, 1, true],
      [1, 4, false],
      [1, 3, false],
      [1, 2, false],
      [1, 1, false],
    ]);
  });

  it('a restart loses nothing: what was queued, or being sent when the process stopped, is sent by the next one', async () => {
    const org = await t.createOrganization();
    await configure(org);
    const sets = [await createVarset(t, org), await createVarset(t, org)];
    for (const set of sets) {
      for (let i = 0; i < 3; i++)
        expectStatus(
          await t.patch(`/api/v2/varsets/${set.id}`, {
            data: { type: 'varsets', attributes: { description: `d${i}` } },
          }),
          200,
        );
    }
    // The first process gets no answer and stops while sending.
    receiver.answer = () => 'hang';
    const first = await deliveringProcess({ timeoutMs: 5_000 });
    const started = Date.now();
    while (!sets.some((s) => forSet(s.id).length) && Date.now() - started < 5_000) await sleep(20);
    assert.ok(
      sets.some((s) => forSet(s.id).length > 0),
      'the first process was sending',
    );
    const stopping = Date.now();
    await running.splice(running.indexOf(first), 1)[0]!.close();
    assert.ok(Date.now() - stopping < 2_000, 'stopping waits a moment, not for the send');
    receiver.answer = () => ({ status: 200 });
    await deliveringProcess();
    const deadline = Date.now() + 10_000;
    while (sets.some((s) => new Set(forSet(s.id).map((r) => r.json.version.number)).size < 4) && Date.now() < deadline)
      await sleep(20);
    for (const set of sets) {
      const numbers = forSet(set.id).map((r) => r.json.version.number);
      assert.deepEqual([...new Set(numbers)], [1, 2, 3, 4], `set ${set.id}: ${numbers.join()}`);
    }
  });

  it('two processes on one database send every change exactly once, in order per set', async () => {
    const org = await t.createOrganization();
    await configure(org);
    await configure(org, { name: 'second receiver' });
    const sets = [await createVarset(t, org), await createVarset(t, org), await createVarset(t, org)];
    receiver.answer = () => ({ status: 200 });
    // The documented timeout, not the fast one: a send that a busy machine answers late would be
    // sent again (at least once, by design), and this test is about two processes claiming.
    await deliveringProcess({ batch: 2, timeoutMs: 5_000 });
    await deliveringProcess({ batch: 2, timeoutMs: 5_000 });
    const changes = 8;
    await Promise.all(
      sets.map(async (set) => {
        for (let i = 0; i < changes; i++)
          expectStatus(
            await t.patch(`/api/v2/varsets/${set.id}`, {
              data: { type: 'varsets', attributes: { description: `change ${i}` } },
            }),
            200,
          );
      }),
    );
    const expected = sets.length * (changes + 1) * 2;
    const deadline = Date.now() + 15_000;
    const ours = () => receiver.received.filter((r) => sets.some((s) => s.id === r.json.varset?.id));
    while (ours().length < expected && Date.now() < deadline) await sleep(20);
    await sleep(500);
    const received = ours();
    assert.equal(received.length, expected);
    const keys = received.map((r) => `${r.json.notification_configuration_id} ${r.json.version.id}`);
    assert.equal(new Set(keys).size, expected, 'no change was sent twice');
    for (const set of sets) {
      for (const configuration of new Set(received.map((r) => r.json.notification_configuration_id))) {
        const numbers = received
          .filter((r) => r.json.varset.id === set.id && r.json.notification_configuration_id === configuration)
          .map((r) => r.json.version.number);
        assert.deepEqual(
          numbers,
          Array.from({ length: changes + 1 }, (_, i) => i + 1),
        );
      }
    }
  });

  it('waits out an outage of the store, logging it once, and sends what was queued once it answers again', async () => {
    const org = await t.createOrganization();
    await configure(org);
    const set = await createVarset(t, org);
    let down = true;
    const failing: KyselyPlugin = {
      transformQuery(args) {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return args.node;
      },
      async transformResult(args) {
        return args.result;
      },
    };
    const lines: any[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) });
    const app = await t.sibling((store) => ({ ...store, db: store.db.withPlugin(failing) }), {
      sealer: t.app.sealer,
      logger: { level: 'info', stream },
      notifications: { allowPrivateAddresses: true, deliver: FAST_DELIVERY },
    });
    running.push(app);
    await app.app.ready();
    await sleep(300);
    assert.equal(forSet(set.id).length, 0);
    const outage = lines.filter((line) => line.msg.startsWith('notifications: the store is unavailable'));
    assert.equal(outage.length, 1, 'logged once, however many rounds failed');
    down = false;
    await sleep(400);
    assert.deepEqual(
      forSet(set.id).map((r) => r.json.version.number),
      [1],
    );
    assert.ok(lines.some((line) => line.msg === 'notifications: the store answers again'));
  });

  it('disabling a configuration drops what waits for it; deleting the organization removes the queue', async () => {
    const org = await t.createOrganization();
    const configuration = await configure(org);
    const set = await createVarset(t, org);
    expectStatus(
      await t.patch(`/api/v2/${TYPE}/${configuration}`, { data: { type: TYPE, attributes: { enabled: false } } }),
      200,
    );
    await deliveringProcess();
    await sleep(300);
    assert.equal(forSet(set.id).length, 0);
    expectStatus(await t.delete(`/api/v2/organizations/${org}`), 204);
  });
});
