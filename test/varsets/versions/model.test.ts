import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKeyring, keyringKey } from '../../../src/secrets/keyring.js';
import { generateKey } from '../../../src/secrets/sealer.js';
import {
  diffStates,
  narrowedTo,
  undoVersions,
  type UndoableVersion,
  type VariableState,
  type VarsetState,
} from '../../../src/varsets/versions/model.js';

/** The diff and the undo work on sealed values: a real keyring seals them, each sealing a new text. */
const secrets = createKeyring([keyringKey(generateKey())]);

function variable(fields: Partial<VariableState> & { key: string; value: string }): VariableState {
  const sensitive = fields.sensitive ?? false;
  return {
    description: '',
    category: 'terraform',
    hcl: false,
    ...fields,
    sensitive,
    value: sensitive ? secrets.seal(fields.value) : fields.value,
  };
}

function state(
  variables: Record<string, VariableState>,
  extra: Partial<Omit<VarsetState, 'variables'>> = {},
): VarsetState {
  return {
    name: 'aws',
    description: '',
    global: false,
    priority: false,
    workspaceIds: new Set(),
    projectIds: new Set(),
    ...extra,
    variables: new Map(Object.entries(variables)),
  };
}

/** A state with its sensitive values opened (two sealings of one value differ) and in id order, to compare. */
function opened(s: VarsetState | null) {
  if (!s) return null;
  const variables = [...s.variables]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, v]) => [id, { ...v, value: v.sensitive ? secrets.open(v.value) : v.value }] as const);
  return {
    ...s,
    variables: new Map(variables),
    workspaceIds: [...s.workspaceIds].sort(),
    projectIds: [...s.projectIds].sort(),
  };
}

/** The versions that took a set through `states` (null: not there), newest first, as a store keeps them. */
function versionsThrough(states: (VarsetState | null)[]): UndoableVersion[] {
  const versions: UndoableVersion[] = [];
  for (let i = 1; i < states.length; i++)
    versions.unshift({ number: i, ...diffStates(states[i - 1]!, states[i]!, secrets) });
  return versions;
}

describe('versions of a set: diffStates and undoVersions', () => {
  it('a creation shows every attribute, variable and assignment as added, a sensitive value as null', () => {
    const created = state(
      {
        a: variable({ key: 'region', value: 'eu-west-1' }),
        b: variable({ key: 'secret', value: 's3', sensitive: true }),
      },
      { workspaceIds: new Set(['ws-1']), projectIds: new Set(['prj-1']) },
    );
    const { changes, sealed } = diffStates(null, created, secrets);
    assert.deepEqual(sealed, {});
    assert.deepEqual(
      changes.map((c) => [c.target, c.action, 'field' in c ? c.field : 'id' in c ? c.id : '']),
      [
        ['varset', 'changed', 'name'],
        ['varset', 'changed', 'description'],
        ['varset', 'changed', 'global'],
        ['varset', 'changed', 'priority'],
        ['variable', 'added', 'a'],
        ['variable', 'added', 'b'],
        ['workspace', 'added', 'ws-1'],
        ['project', 'added', 'prj-1'],
      ],
    );
    const secret = changes.find((c) => c.target === 'variable' && c.id === 'b');
    assert.ok(secret?.target === 'variable' && secret.action === 'added');
    assert.ok(secret.after);
    assert.equal(secret.after.value, null);
    assert.equal(secret.after.sensitive, true);
  });

  it('a sensitive value sealed again, unchanged, is no change; a new one is a change shown only as sensitive, the old one kept sealed', () => {
    const before = state({ b: variable({ key: 'secret', value: 'old', sensitive: true }) });
    const resealed = state({ b: variable({ key: 'secret', value: 'old', sensitive: true }) });
    assert.notEqual(before.variables.get('b')!.value, resealed.variables.get('b')!.value);
    assert.deepEqual(diffStates(before, resealed, secrets), { changes: [], sealed: {} });

    const changed = state({ b: variable({ key: 'secret', value: 'new', sensitive: true }) });
    const { changes, sealed } = diffStates(before, changed, secrets);
    assert.deepEqual(changes, [
      {
        target: 'variable',
        id: 'b',
        key: 'secret',
        category: 'terraform',
        action: 'changed',
        field: 'value',
        before: null,
        after: null,
        sensitive: true,
      },
    ]);
    assert.equal(secrets.open(sealed.b!), 'old');
    assert.ok(!JSON.stringify(changes).includes('old') && !JSON.stringify(changes).includes('new'));
  });

  it('a value made sensitive is hidden on both sides and kept sealed; undoing it puts the value back, still sensitive', () => {
    const plain = state({ a: variable({ key: 'token', value: 'visible' }) });
    const hidden = state({ a: variable({ key: 'token', value: 'hidden', sensitive: true }) });
    const version = { number: 2, ...diffStates(plain, hidden, secrets) };
    const fields = version.changes.map((c) => (c.target === 'variable' && c.action === 'changed' ? c.field : c.action));
    assert.deepEqual(fields, ['value', 'sensitive']);
    assert.ok(!JSON.stringify(version.changes).includes('visible'));
    assert.equal(secrets.open(version.sealed.a!), 'visible');

    const undone = undoVersions(hidden, [version]);
    assert.equal(undone?.variables.get('a')?.sensitive, true, 'a rollback never shows a value made secret since');
    assert.equal(secrets.open(undone.variables.get('a')!.value), 'visible');
  });

  it('a sensitive variable that needed a value: its need is part of what a version changes and undoes', () => {
    const needed = state({ a: { ...variable({ key: 'token', value: '', sensitive: true }), value_needed: true } });
    const filled = state({ a: variable({ key: 'token', value: 'pw', sensitive: true }) });
    const versions = versionsThrough([null, needed, filled, null]);
    const changes = versions[1]!.changes.map((c) =>
      c.target === 'variable' && c.action === 'changed' ? [c.field, c.before, c.after] : c.action,
    );
    assert.deepEqual(changes, [
      ['value', null, null],
      ['value-needed', true, false],
    ]);
    assert.deepEqual(
      versions[2]!.changes.find((c) => c.target === 'variable'),
      {
        target: 'variable',
        id: 'a',
        key: 'token',
        category: 'terraform',
        action: 'added',
        before: null,
        after: {
          key: 'token',
          value: null,
          description: '',
          category: 'terraform',
          hcl: false,
          sensitive: true,
          'value-needed': true,
        },
      },
    );
    const before = undoVersions(filled, versions.slice(1, 2));
    assert.equal(before?.variables.get('a')?.value_needed, true, 'back to needing a value, not to an empty secret');
    assert.deepEqual(opened(before), opened(needed));
    assert.deepEqual(opened(undoVersions(null, versions.slice(0, 2))), opened(needed), 'a deleted set restored');
    assert.deepEqual(opened(undoVersions(null, versions.slice(0, 1))), opened(filled));
    // A version written before the need was kept says nothing of it: the variable had its value.
    const older = structuredClone(versions[0]!);
    const removed = older.changes.find((c) => c.target === 'variable');
    assert.ok(removed?.target === 'variable' && removed.action === 'removed' && removed.before);
    delete removed.before['value-needed'];
    assert.equal(undoVersions(null, [older])?.variables.get('a')?.value_needed, undefined);
  });

  it('undoing every version from the newest gives back each earlier state, through a deletion and a restore', () => {
    const s1 = state({ a: variable({ key: 'region', value: 'eu-west-1' }) });
    const s2 = state(
      {
        a: variable({ key: 'region', value: 'us-east-1', description: 'where', category: 'env' }),
        b: variable({ key: 'db', value: 'pw1', sensitive: true }),
      },
      { name: 'aws-prod', global: true, workspaceIds: new Set(['ws-1', 'ws-2']) },
    );
    const s3 = state(
      {
        b: variable({ key: 'db', value: 'pw2', sensitive: true }),
        c: variable({ key: 'map', value: '{}', hcl: true }),
      },
      { name: 'aws-prod', priority: true, workspaceIds: new Set(['ws-2']), projectIds: new Set(['prj-1']) },
    );
    const states = [null, s1, s2, s3, null, s3];
    const versions = versionsThrough(states);
    for (let back = 0; back < versions.length; back++) {
      const at = states.length - 1 - back - 1;
      const undone = undoVersions(states.at(-1)!, versions.slice(0, back + 1));
      assert.deepEqual(opened(undone), opened(states[at]!), `${back + 1} versions undone: state ${at}`);
    }
    assert.deepEqual(opened(undoVersions(null, versions.slice(1, 3))), opened(s2), 'from a deleted set');
  });

  it('leaves alone a change to a variable the versions never saw (written before versions existed)', () => {
    const now = state({ a: variable({ key: 'region', value: 'eu-west-1' }) });
    const version: UndoableVersion = {
      number: 1,
      sealed: {},
      changes: [
        {
          target: 'variable',
          id: 'gone',
          key: 'x',
          category: 'env',
          action: 'changed',
          field: 'value',
          before: 'a',
          after: 'b',
          sensitive: false,
        },
      ],
    };
    assert.deepEqual(opened(undoVersions(now, [version])), opened(now));
  });

  it("a set narrowed to one variable differs from its narrowed self after that variable's write as the whole set does", () => {
    const others = {
      a: variable({ key: 'region', value: 'eu' }),
      b: variable({ key: 'db', value: 'pw', sensitive: true }),
    };
    const assigned = { workspaceIds: new Set(['ws-1']), projectIds: new Set(['prj-1']) };
    const written = { id: 'c', ...variable({ key: 'count', value: '2' }) };
    const rewritten = { id: 'c', ...variable({ key: 'count', value: '3', description: 'how many' }) };
    for (const [was, is] of [
      [null, written],
      [written, rewritten],
      [rewritten, null],
    ] as const) {
      const whole = (v: typeof written | null) => state(v ? { ...others, c: v } : others, assigned);
      assert.deepEqual(
        diffStates(narrowedTo(whole(was), was), narrowedTo(whole(is), is), secrets).changes,
        diffStates(whole(was), whole(is), secrets).changes,
      );
    }
  });
});
