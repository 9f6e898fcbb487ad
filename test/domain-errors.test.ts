import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  blank,
  Conflict,
  Forbidden,
  Invalid,
  InvalidFilter,
  NotFound,
  Taken,
  TokenRefused,
  TooLarge,
  TransitionRefused,
  Unprocessable,
} from '../src/common/errors.js';
import { apiErrorOf, pointerOf } from '../src/http/domain-errors.js';

/** The one translation of domain errors into JSON:API errors (unit level; the API tests check the answers themselves). */

describe('domain errors at the HTTP edge', () => {
  it('points at attributes, members of attributes, relationships and resources in lists', () => {
    assert.equal(pointerOf('name'), '/data/attributes/name');
    assert.equal(pointerOf('project-access.runs'), '/data/attributes/project-access/runs');
    assert.equal(pointerOf('variables[2].key'), '/data/attributes/variables/2/key');
    assert.equal(pointerOf('vars[2].key'), '/data/relationships/vars/data/2/attributes/key');
    assert.equal(pointerOf('workspaces'), '/data/relationships/workspaces/data');
    assert.equal(pointerOf('parent'), '/data/relationships/parent/data');
    assert.equal(pointerOf('team'), '/data/relationships/team');
    assert.equal(pointerOf(''), '/data');
  });

  it('takes a route’s own places for the fields of its body', () => {
    assert.equal(pointerOf('tag-bindings[1].value', { 'tag-bindings': '/data' }), '/data/1/attributes/value');
    assert.equal(pointerOf('remote-state-consumers[3].id', { 'remote-state-consumers': '/data' }), '/data/3/id');
    assert.equal(pointerOf('version', { version: '/data/id' }), '/data/id');
  });

  it('gives every error its status, title, detail and source', () => {
    const document = (error: Parameters<typeof apiErrorOf>[0]) => apiErrorOf(error).toDocument().errors[0];
    assert.deepEqual(document(new NotFound()), { status: '404', title: 'not found' });
    assert.deepEqual(document(new TokenRefused()), { status: '401', title: 'unauthorized' });
    assert.deepEqual(document(new Forbidden('no', 'organization-access')), {
      status: '403',
      title: 'forbidden',
      detail: 'no',
      source: { pointer: '/data/attributes/organization-access' },
    });
    assert.deepEqual(document(blank('name')), {
      status: '422',
      title: 'invalid attribute',
      detail: "name can't be blank",
      source: { pointer: '/data/attributes/name' },
    });
    assert.deepEqual(document(new Invalid('global', 'no')), {
      status: '422',
      title: 'invalid attribute',
      detail: 'no',
      source: { pointer: '/data/attributes/global' },
    });
    assert.deepEqual(document(new Taken('key', 'vars[0].category')), {
      status: '422',
      title: 'invalid attribute',
      detail: 'Key has already been taken',
      source: { pointer: '/data/relationships/vars/data/0/attributes/category' },
    });
    assert.deepEqual(document(new Taken('description')), {
      status: '422',
      title: 'invalid attributes',
      detail: 'Validation failed: Description has already been taken',
      source: { pointer: '/data/attributes/description' },
    });
    assert.deepEqual(document(new Unprocessable('no')), { status: '422', title: 'unprocessable entity', detail: 'no' });
    assert.deepEqual(document(new Conflict('locked')), { status: '409', title: 'conflict', detail: 'locked' });
    assert.deepEqual(document(new TransitionRefused('no')), {
      status: '409',
      title: 'transition not allowed',
      detail: 'no',
    });
    assert.deepEqual(document(new TooLarge('big')), { status: '413', title: 'payload too large', detail: 'big' });
    assert.deepEqual(document(new InvalidFilter('organization.name', 'is required')), {
      status: '400',
      title: 'bad request',
      detail: 'filter[organization][name] is required',
      source: { parameter: 'filter[organization][name]' },
    });
    assert.equal(apiErrorOf(new Conflict('locked')).status, 409);
  });

  it('carries a refusal’s code and facts as the error’s code and meta', () => {
    const error = new Unprocessable('gone', 'version');
    error.code = 'missing-assignments';
    error.facts = { missing: ['ws-1'] };
    assert.deepEqual(apiErrorOf(error, { version: '/data/id' }).toDocument().errors[0], {
      status: '422',
      title: 'unprocessable entity',
      detail: 'gone',
      source: { pointer: '/data/id' },
      code: 'missing-assignments',
      meta: { missing: ['ws-1'] },
    });
  });
});
