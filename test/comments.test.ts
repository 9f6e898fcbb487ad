import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { createComment, createRun } from './support/factories/runs.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const commentBody = (body: unknown) => ({ data: { type: 'comments', attributes: { body } } });

describe(`comments and run events (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    ws = await t.createWorkspace(org);
  });
  after(async () => t.close());

  it('follows TestCommentsList_RunDependent: empty list, two comments on a pending run, list of two', async () => {
    const run = await createRun(t, ws);
    let res = await t.get(`/api/v2/runs/${run.id}/comments`);
    expectStatus(res, 200);
    assert.deepEqual(res.body.data, []);
    assert.equal(res.body.meta.pagination['total-count'], 0);

    res = await t.post(`/api/v2/runs/${run.id}/comments`, commentBody('1st comment test'));
    expectStatus(res, 201);
    const first = res.body.data;
    assert.equal(first.type, 'comments');
    assert.match(first.id, /^wsc-[A-Za-z0-9]{16}$/);
    assert.deepEqual(first.attributes, { body: '1st comment test' });
    const eventId = first.relationships['run-event'].data.id;
    assert.match(eventId, /^re-[A-Za-z0-9]{16}$/);
    assert.deepEqual(first.relationships, {
      'run-event': { data: { id: eventId, type: 'run-events' }, links: { related: `/api/v2/run-events/${eventId}` } },
    });
    assert.deepEqual(first.links, { self: `/api/v2/comments/${first.id}` });

    const second = await createComment(t, run.id, '2nd comment test');
    res = await t.get(`/api/v2/runs/${run.id}/comments`);
    expectStatus(res, 200);
    assert.deepEqual(res.body.data, [first, second]);
    assert.equal(run.attributes.status, 'pending');
  });

  it('shows a comment as it was created', async () => {
    const run = await createRun(t, ws);
    const comment = await createComment(t, run.id, 'looks good');
    const res = await t.get(`/api/v2/comments/${comment.id}`);
    expectStatus(res, 200);
    assert.deepEqual(res.body, { data: comment });
  });

  it('trims the body and refuses a blank, missing, non-string or over-long one with 422', async () => {
    const run = await createRun(t, ws);
    const trimmed = await createComment(t, run.id, '  spaced out \n');
    assert.equal(trimmed.attributes.body, 'spaced out');
    const longest = await createComment(t, run.id, 'é'.repeat(10_000));
    assert.equal(longest.attributes.body.length, 10_000);
    const cases: Array<[unknown, string]> = [
      [commentBody(''), '/data/attributes/body'],
      [commentBody('   \n\t'), '/data/attributes/body'],
      [commentBody(null), '/data/attributes/body'],
      [{ data: { type: 'comments' } }, '/data/attributes/body'],
      [commentBody(42), '/data/attributes/body'],
      [commentBody(['a']), '/data/attributes/body'],
      [commentBody('x'.repeat(10_001)), '/data/attributes/body'],
      [{ data: { type: 'runs', attributes: { body: 'x' } } }, '/data/type'],
      [{ data: { attributes: { body: 'x' } } }, '/data/type'],
      [{ data: [] }, '/data'],
      [{}, '/data'],
    ];
    for (const [body, pointer] of cases) {
      const res = await t.post(`/api/v2/runs/${run.id}/comments`, body);
      assert.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
      assert.equal(res.body.errors[0].source.pointer, pointer, JSON.stringify(body).slice(0, 80));
    }
    const empty = await t.request('POST', `/api/v2/runs/${run.id}/comments`, {
      contentType: 'application/vnd.api+json',
    });
    assert.equal(empty.status, 422);
    const list = await t.get(`/api/v2/runs/${run.id}/comments`);
    assert.equal(list.body.meta.pagination['total-count'], 2);
    const events = await t.get(`/api/v2/runs/${run.id}/run-events`);
    assert.equal(events.body.meta.pagination['total-count'], 3);
  });

  it('answers 404 for an unknown run or comment, and 401 without a token', async () => {
    assert.equal((await t.get('/api/v2/runs/run-nope/comments')).status, 404);
    assert.equal((await t.post('/api/v2/runs/run-nope/comments', commentBody('x'))).status, 404);
    assert.equal((await t.get('/api/v2/comments/wsc-nope')).status, 404);
    assert.equal((await t.get('/api/v2/comments/nonexisting')).status, 404);
    const run = await createRun(t, ws);
    assert.equal((await t.get(`/api/v2/runs/${run.id}/comments`, { token: null })).status, 401);
    assert.equal((await t.post(`/api/v2/runs/${run.id}/comments`, commentBody('x'), { token: null })).status, 401);
  });

  it('lists comments oldest first, paginated', async () => {
    const run = await createRun(t, ws);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createComment(t, run.id, `comment ${i}`)).id);
    let res = await t.get(`/api/v2/runs/${run.id}/comments?page%5Bsize%5D=2&page%5Bnumber%5D=2`);
    expectStatus(res, 200);
    assert.deepEqual(
      res.body.data.map((c: any) => c.id),
      ids.slice(2, 4),
    );
    assert.deepEqual(res.body.meta.pagination, {
      'current-page': 2,
      'page-size': 2,
      'prev-page': 1,
      'next-page': 3,
      'total-pages': 3,
      'total-count': 5,
    });
    assert.equal(res.body.links.self, `/api/v2/runs/${run.id}/comments?page%5Bnumber%5D=2&page%5Bsize%5D=2`);
    assert.equal(res.body.links.last, `/api/v2/runs/${run.id}/comments?page%5Bnumber%5D=3&page%5Bsize%5D=2`);
    res = await t.get(`/api/v2/runs/${run.id}/comments`);
    assert.deepEqual(
      res.body.data.map((c: any) => c.id),
      ids,
    );
    assert.equal((await t.get(`/api/v2/runs/${run.id}/comments?page%5Bnumber%5D=x`)).status, 400);
    assert.equal((await t.get(`/api/v2/runs/${run.id}/comments?include=run-event`)).status, 400);
  });

  it('links every comment to a commented run event, shown and listed oldest first', async () => {
    const run = await createRun(t, ws);
    const comment = await createComment(t, run.id, 'ship it');
    const eventId = comment.relationships['run-event'].data.id;
    let res = await t.get(`/api/v2/run-events/${eventId}`);
    expectStatus(res, 200);
    const event = res.body.data;
    assert.equal(event.type, 'run-events');
    assert.equal(event.id, eventId);
    assert.equal(event.attributes.action, 'commented');
    assert.equal(event.attributes.description, 'Comment added');
    assert.match(event.attributes['created-at'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(event.relationships, {
      actor: { data: null },
      comment: { data: { id: comment.id, type: 'comments' } },
    });
    assert.deepEqual(event.links, { self: `/api/v2/run-events/${eventId}` });
    assert.equal(res.body.included, undefined);

    res = await t.get(`/api/v2/runs/${run.id}/run-events`);
    expectStatus(res, 200);
    assert.deepEqual(
      res.body.data.map((e: any) => e.attributes.action),
      ['created', 'commented'],
    );
    assert.deepEqual(res.body.data[1], event);
    assert.equal(res.body.included, undefined);
  });

  it('includes comments on request; actor adds nothing, an empty include means none, others are a 400', async () => {
    const run = await createRun(t, ws);
    const c1 = await createComment(t, run.id, 'one');
    const c2 = await createComment(t, run.id, 'two');
    let res = await t.get(`/api/v2/runs/${run.id}/run-events?include=actor,comment`);
    expectStatus(res, 200);
    assert.deepEqual(res.body.included, [c1, c2]);
    res = await t.get(`/api/v2/run-events/${c2.relationships['run-event'].data.id}?include=comment`);
    assert.deepEqual(res.body.included, [c2]);
    res = await t.get(`/api/v2/runs/${run.id}/run-events?include=actor`);
    assert.deepEqual(res.body.included, []);
    res = await t.get(`/api/v2/runs/${run.id}/run-events?include=`);
    assert.equal(res.body.included, undefined);
    for (const url of [
      `/api/v2/runs/${run.id}/run-events?include=plan`,
      `/api/v2/run-events/${c1.relationships['run-event'].data.id}?include=comment,run`,
    ]) {
      res = await t.get(url);
      assert.equal(res.status, 400, url);
      assert.equal(res.body.errors[0].source.parameter, 'include');
    }
  });

  it('paginates run events', async () => {
    const run = await createRun(t, ws);
    for (let i = 0; i < 3; i++) await createComment(t, run.id, `c${i}`);
    const res = await t.get(`/api/v2/runs/${run.id}/run-events?page%5Bsize%5D=3&page%5Bnumber%5D=2&include=comment`);
    expectStatus(res, 200);
    assert.equal(res.body.data.length, 1);
    assert.equal(res.body.data[0].attributes.action, 'commented');
    assert.deepEqual(
      res.body.included.map((c: any) => c.attributes.body),
      ['c2'],
    );
    assert.equal(res.body.meta.pagination['total-count'], 4);
    const past = await t.get(`/api/v2/runs/${run.id}/run-events?page%5Bsize%5D=3&page%5Bnumber%5D=3`);
    expectStatus(past, 200);
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.pagination['total-count'], 4);
  });

  it('answers 404 for unknown run events', async () => {
    assert.equal((await t.get('/api/v2/run-events/re-nope')).status, 404);
    assert.equal((await t.get('/api/v2/runs/run-nope/run-events')).status, 404);
  });

  it('removes comments and run events with the workspace', async () => {
    const w = await t.createWorkspace(org);
    const run = await createRun(t, w);
    const comment = await createComment(t, run.id, 'bye');
    const eventId = comment.relationships['run-event'].data.id;
    expectStatus(await t.delete(`/api/v2/workspaces/${w}`), 204);
    assert.equal((await t.get(`/api/v2/comments/${comment.id}`)).status, 404);
    assert.equal((await t.get(`/api/v2/run-events/${eventId}`)).status, 404);
    assert.deepEqual(await t.store.db.selectFrom('comments').select('id').where('run_id', '=', run.id).execute(), []);
    assert.deepEqual(await t.store.db.selectFrom('run_events').select('id').where('run_id', '=', run.id).execute(), []);
  });

  it('removes comments with the organization', async () => {
    const org2 = await t.createOrganization();
    const w = await t.createWorkspace(org2);
    const run = await createRun(t, w);
    const comment = await createComment(t, run.id, 'bye');
    expectStatus(await t.delete(`/api/v2/organizations/${org2}`), 204);
    assert.equal((await t.get(`/api/v2/comments/${comment.id}`)).status, 404);
    assert.deepEqual(await t.store.db.selectFrom('comments').select('id').where('id', '=', comment.id).execute(), []);
  });
});
