import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareCodePoints } from '../src/common/code-points.js';
import type { Category } from '../src/variables/model.js';
import {
  resolveVariables,
  type ApplicableVarset,
  type PrecedenceLevel,
  type ResolveInput,
  type ResolvedVariable,
  type VarsetOwner,
  type VarsetScope,
} from '../src/effective/resolve.js';

interface TestVar {
  id: string;
  key: string;
  category: Category;
  value: string;
  hcl: boolean;
  sensitive: boolean;
}

let counter = 0;
function variable(key: string, category: Category = 'terraform', value = `v${++counter}`): TestVar {
  return { id: `var-${String(++counter).padStart(16, '0')}`, key, category, value, hcl: false, sensitive: false };
}

function runVariable(key: string, value = `r${++counter}`): TestVar & { category: 'terraform' } {
  return { id: `run-var-${++counter}`, key, category: 'terraform', value, hcl: true, sensitive: false };
}

function set(
  name: string,
  options: { owner?: VarsetOwner; priority?: boolean; scopes: readonly VarsetScope[] },
  variables: TestVar[],
): ApplicableVarset<TestVar> {
  return {
    id: `varset-${name}`,
    name,
    owner: options.owner ?? 'organization',
    priority: options.priority ?? false,
    version: null,
    scopes: options.scopes,
    variables,
  };
}

function input(parts: Partial<ResolveInput<TestVar>>): ResolveInput<TestVar> {
  return { workspaceVariables: [], runVariables: [], varsets: [], ...parts };
}

/** One candidate for `key` at each level, so any two levels can be set against each other. */
type LevelSource = (key: string, tag: string) => Partial<ResolveInput<TestVar>>;
const levels: [PrecedenceLevel, string, LevelSource][] = [
  [
    1,
    'priority global set',
    (k, t) => ({ varsets: [set(`s1-${t}`, { priority: true, scopes: ['global'] }, [variable(k)])] }),
  ],
  [
    2,
    'priority project-scoped org-owned set',
    (k, t) => ({ varsets: [set(`s2-${t}`, { priority: true, scopes: ['project'] }, [variable(k)])] }),
  ],
  [
    3,
    'priority workspace-scoped org-owned set',
    (k, t) => ({ varsets: [set(`s3-${t}`, { priority: true, scopes: ['workspace'] }, [variable(k)])] }),
  ],
  [
    4,
    'priority project-scoped project-owned set',
    (k, t) => ({ varsets: [set(`s4-${t}`, { priority: true, owner: 'project', scopes: ['project'] }, [variable(k)])] }),
  ],
  [
    5,
    'priority workspace-scoped project-owned set',
    (k, t) => ({
      varsets: [set(`s5-${t}`, { priority: true, owner: 'project', scopes: ['workspace'] }, [variable(k)])],
    }),
  ],
  [6, 'run variable', (k) => ({ runVariables: [runVariable(k)] })],
  [8, 'workspace variable', (k) => ({ workspaceVariables: [variable(k)] })],
  [
    9,
    'workspace-scoped project-owned set',
    (k, t) => ({ varsets: [set(`s9-${t}`, { owner: 'project', scopes: ['workspace'] }, [variable(k)])] }),
  ],
  [
    10,
    'project-scoped project-owned set',
    (k, t) => ({ varsets: [set(`s10-${t}`, { owner: 'project', scopes: ['project'] }, [variable(k)])] }),
  ],
  [
    11,
    'workspace-scoped org-owned set',
    (k, t) => ({ varsets: [set(`s11-${t}`, { scopes: ['workspace'] }, [variable(k)])] }),
  ],
  [
    12,
    'project-scoped org-owned set',
    (k, t) => ({ varsets: [set(`s12-${t}`, { scopes: ['project'] }, [variable(k)])] }),
  ],
  [13, 'global set', (k, t) => ({ varsets: [set(`s13-${t}`, { scopes: ['global'] }, [variable(k)])] })],
];

function merge(...parts: Partial<ResolveInput<TestVar>>[]): ResolveInput<TestVar> {
  return input({
    workspaceVariables: parts.flatMap((p) => p.workspaceVariables ?? []),
    runVariables: parts.flatMap((p) => p.runVariables ?? []),
    varsets: parts.flatMap((p) => p.varsets ?? []),
  });
}

function only(result: ResolvedVariable<TestVar>[]): ResolvedVariable<TestVar> {
  assert.equal(result.length, 1, JSON.stringify(result));
  return result[0]!;
}

/** Every order of the given items (small lists only). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('resolveVariables: precedence levels', () => {
  for (let i = 0; i + 1 < levels.length; i++) {
    const [high, highName, highSource] = levels[i]!;
    const [low, lowName, lowSource] = levels[i + 1]!;
    it(`level ${high} (${highName}) beats level ${low} (${lowName})`, () => {
      const a = highSource('FOO', 'a');
      const b = lowSource('FOO', 'b');
      for (const resolved of [resolveVariables(merge(a, b)), resolveVariables(merge(b, a))]) {
        const result = only(resolved);
        assert.equal(result.winner.level, high);
        assert.deepEqual(
          result.overridden.map((o) => o.level),
          [low],
        );
      }
    });
  }

  it('ranks a candidate from every level in order, highest first, whatever the input order', () => {
    const parts = levels.map(([, , source], i) => source('FOO', String(i)));
    const forward = resolveVariables(merge(...parts));
    const backward = resolveVariables(merge(...[...parts].reverse()));
    assert.deepEqual(backward, forward);
    const result = only(forward);
    assert.equal(result.winner.level, 1);
    assert.deepEqual(
      result.overridden.map((o) => o.level),
      [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13],
    );
  });

  it('reports each source with its set id, name, scope, owner and priority', () => {
    const result = only(
      resolveVariables(
        input({
          workspaceVariables: [variable('FOO')],
          runVariables: [runVariable('FOO')],
          varsets: [
            set('prio', { priority: true, owner: 'project', scopes: ['workspace'] }, [variable('FOO')]),
            set('plain', { scopes: ['project'] }, [variable('FOO')]),
          ],
        }),
      ),
    );
    assert.deepEqual(
      [result.winner, ...result.overridden].map((o) => [o.level, o.source]),
      [
        [
          5,
          {
            kind: 'varset',
            id: 'varset-prio',
            name: 'prio',
            scope: 'workspace',
            owner: 'project',
            priority: true,
            version: null,
          },
        ],
        [6, { kind: 'run' }],
        [8, { kind: 'workspace' }],
        [
          12,
          {
            kind: 'varset',
            id: 'varset-plain',
            name: 'plain',
            scope: 'project',
            owner: 'organization',
            priority: false,
            version: null,
          },
        ],
      ],
    );
  });
});

describe('resolveVariables: priority sets and run variables', () => {
  const cases: [string, VarsetOwner, VarsetScope][] = [
    ['global', 'organization', 'global'],
    ['org-owned project-scoped', 'organization', 'project'],
    ['org-owned workspace-scoped', 'organization', 'workspace'],
    ['project-owned project-scoped', 'project', 'project'],
    ['project-owned workspace-scoped', 'project', 'workspace'],
  ];
  for (const [name, owner, scope] of cases) {
    it(`a priority ${name} set beats a run variable, a plain one loses to it`, () => {
      const run = runVariable('region', '"eu"');
      const prioritised = only(
        resolveVariables(
          input({
            runVariables: [run],
            varsets: [set('s', { owner, scopes: [scope], priority: true }, [variable('region')])],
          }),
        ),
      );
      assert.equal(prioritised.winner.source.kind, 'varset');
      assert.equal(prioritised.overridden[0]!.variable, run);
      const plain = only(
        resolveVariables(
          input({ runVariables: [run], varsets: [set('s', { owner, scopes: [scope] }, [variable('region')])] }),
        ),
      );
      assert.equal(plain.winner.variable, run);
      assert.equal(plain.overridden[0]!.source.kind, 'varset');
    });
  }

  it('run variables compete with terraform variables only', () => {
    const env = variable('region', 'env');
    const result = resolveVariables(input({ runVariables: [runVariable('region')], workspaceVariables: [env] }));
    assert.deepEqual(
      result.map((r) => [r.key, r.category, r.winner.source.kind, r.overridden.length]),
      [
        ['region', 'env', 'workspace', 0],
        ['region', 'terraform', 'run', 0],
      ],
    );
  });

  it('refuses a run variable of category env', () => {
    const wrong = { ...variable('x', 'env') } as unknown as TestVar & { category: 'terraform' };
    assert.throws(() => resolveVariables(input({ runVariables: [wrong] })));
  });

  it('a run variable given twice: the later one wins, as on the command line', () => {
    const first = runVariable('n', '1');
    const second = runVariable('n', '2');
    const result = only(
      resolveVariables(input({ runVariables: [first, second], workspaceVariables: [variable('n')] })),
    );
    assert.equal(result.winner.variable, second);
    assert.deepEqual(
      result.overridden.map((o) => o.source.kind),
      ['run', 'workspace'],
    );
    assert.equal(result.overridden[0]!.variable, first);
  });
});

describe('resolveVariables: sets of one level', () => {
  // [first name, second name, winner, why]
  const ties: [string, string, string, string][] = [
    ['A_set', 'B_set', 'A_set', 'plain ASCII'],
    ['B', 'a', 'B', 'upper case sorts before lower case by code point'],
    ['a', 'B', 'B', 'the order given does not matter'],
    ['set', 'set-2', 'set', 'a prefix sorts first'],
    ['Z', 'É', 'Z', 'ASCII before Latin-1'],
    ['é', 'ê', 'é', 'Latin-1 by code point'],
    [
      '\u{FF21}',
      '\u{1F600}',
      '\u{FF21}',
      'U+FF21 before U+1F600, although its UTF-16 code unit FF21 is above the surrogate D83D',
    ],
    ['\u{E000}x', '\u{10000}x', '\u{E000}x', 'private use U+E000 before U+10000'],
    ['\u{1F600}', '\u{1F601}', '\u{1F600}', 'two astral-plane characters'],
    ['\u{D7FF}', '\u{10000}', '\u{D7FF}', 'last character below the surrogates before the first astral one'],
  ];
  for (const [first, second, winner, why] of ties) {
    it(`"${first}" vs "${second}": "${winner}" wins (${why})`, () => {
      for (const scope of ['global', 'project', 'workspace'] as const) {
        for (const priority of [false, true]) {
          const result = only(
            resolveVariables(
              input({
                varsets: [
                  set(first, { scopes: [scope], priority }, [variable('k')]),
                  set(second, { scopes: [scope], priority }, [variable('k')]),
                ],
              }),
            ),
          );
          assert.equal(result.winner.source.kind === 'varset' && result.winner.source.name, winner);
          assert.equal(result.overridden.length, 1);
        }
      }
    });
  }

  it('code point order differs from UTF-16 order and from localeCompare where it matters', () => {
    assert.deepEqual(
      ['\u{FF21}', '\u{1F600}'].sort(),
      ['\u{1F600}', '\u{FF21}'],
      'UTF-16 code units put the astral character first',
    );
    assert.ok(compareCodePoints('\u{FF21}', '\u{1F600}') < 0);
    assert.ok('a'.localeCompare('B') < 0, 'localeCompare puts a before B');
    assert.ok(compareCodePoints('B', 'a') < 0);
  });

  it('compareCodePoints agrees with comparing code point arrays', () => {
    const samples = [
      '',
      'a',
      'B',
      'ab',
      'a\u{10000}',
      'a\u{FFFF}',
      '\u{D7FF}',
      '\u{E000}',
      '\u{FFFD}',
      '\u{10000}',
      '\u{1F600}',
      '\u{10FFFF}',
      'é',
      'zz',
    ];
    const byArrays = (a: string, b: string) => {
      const x = Array.from(a, (c) => c.codePointAt(0)!);
      const y = Array.from(b, (c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    };
    for (const a of samples)
      for (const b of samples)
        assert.equal(Math.sign(compareCodePoints(a, b)), Math.sign(byArrays(a, b)), `${a} vs ${b}`);
  });

  it('orders many sets of one level by name whatever the input order', () => {
    const names = ['beta', 'Alpha', '\u{1F600}', '\u{FF21}', 'alpha'];
    const sets = names.map((n) => set(n, { scopes: ['workspace'] }, [variable('k')]));
    const expected = ['Alpha', 'alpha', 'beta', '\u{FF21}', '\u{1F600}'];
    for (const order of permutations(sets)) {
      const result = only(resolveVariables(input({ varsets: order })));
      assert.deepEqual(
        [result.winner, ...result.overridden].map((o) => (o.source.kind === 'varset' ? o.source.name : '')),
        expected,
      );
    }
  });
});

describe('resolveVariables: identity of a variable', () => {
  it('keeps env and terraform variables of one key apart', () => {
    const result = resolveVariables(
      input({
        workspaceVariables: [variable('FOO', 'env')],
        varsets: [set('s', { scopes: ['global'] }, [variable('FOO', 'terraform'), variable('FOO', 'env')])],
      }),
    );
    assert.deepEqual(
      result.map((r) => [r.category, r.winner.source.kind, r.overridden.map((o) => o.source.kind)]),
      [
        ['env', 'workspace', ['varset']],
        ['terraform', 'varset', []],
      ],
    );
  });

  it('keys are case-sensitive', () => {
    const result = resolveVariables(input({ workspaceVariables: [variable('foo'), variable('FOO')] }));
    assert.deepEqual(
      result.map((r) => r.key),
      ['FOO', 'foo'],
    );
  });

  it('sorts the result by key, then category', () => {
    const result = resolveVariables(
      input({
        workspaceVariables: [
          variable('b', 'terraform'),
          variable('b', 'env'),
          variable('\u{1F600}'),
          variable('\u{FF21}'),
          variable('A'),
        ],
      }),
    );
    assert.deepEqual(
      result.map((r) => [r.key, r.category]),
      [
        ['A', 'terraform'],
        ['b', 'env'],
        ['b', 'terraform'],
        ['\u{FF21}', 'terraform'],
        ['\u{1F600}', 'terraform'],
      ],
    );
  });

  it('passes the variables through untouched (values are never read)', () => {
    const sealed = { ...variable('secret'), value: 'sealed:v1:AAAA', sensitive: true };
    const result = only(resolveVariables(input({ workspaceVariables: [sealed] })));
    assert.equal(result.winner.variable, sealed);
  });

  it('returns nothing for no candidates', () => {
    assert.deepEqual(resolveVariables(input({})), []);
  });
});

describe('resolveVariables: owners and scopes', () => {
  const cases: [string, ApplicableVarset<TestVar>['scopes'], VarsetOwner, boolean, PrecedenceLevel, VarsetScope][] = [
    [
      'a plain set assigned to the workspace and its project counts as workspace-scoped',
      ['project', 'workspace'],
      'organization',
      false,
      11,
      'workspace',
    ],
    [
      'a plain project-owned set assigned to the workspace and its project',
      ['workspace', 'project'],
      'project',
      false,
      9,
      'workspace',
    ],
    [
      'a plain global set also assigned to the workspace counts as workspace-scoped',
      ['global', 'workspace'],
      'organization',
      false,
      11,
      'workspace',
    ],
    [
      'a plain global set also assigned to the project counts as project-scoped',
      ['global', 'project'],
      'organization',
      false,
      12,
      'project',
    ],
    [
      'a priority global set also assigned to the workspace keeps the global level',
      ['workspace', 'global'],
      'organization',
      true,
      1,
      'global',
    ],
    [
      'a priority set assigned to the workspace and its project counts as project-scoped',
      ['workspace', 'project'],
      'organization',
      true,
      2,
      'project',
    ],
    [
      'a priority project-owned set assigned to the workspace and its project',
      ['workspace', 'project'],
      'project',
      true,
      4,
      'project',
    ],
  ];
  for (const [name, scopes, owner, priority, level, scope] of cases) {
    it(name, () => {
      const result = only(
        resolveVariables(input({ varsets: [set('s', { scopes, owner, priority }, [variable('k')])] })),
      );
      assert.equal(result.winner.level, level);
      assert.equal(result.winner.source.kind === 'varset' && result.winner.source.scope, scope);
      assert.deepEqual(result.overridden, []);
    });
  }

  it('a project-owned set beats an org-owned one of the same scope (plain), and loses to it (priority)', () => {
    for (const scope of ['project', 'workspace'] as const) {
      const plain = only(
        resolveVariables(
          input({
            varsets: [
              set('a-org', { scopes: [scope] }, [variable('k')]),
              set('z-prj', { scopes: [scope], owner: 'project' }, [variable('k')]),
            ],
          }),
        ),
      );
      assert.equal(plain.winner.source.kind === 'varset' && plain.winner.source.owner, 'project', scope);
      const priority = only(
        resolveVariables(
          input({
            varsets: [
              set('z-org', { scopes: [scope], priority: true }, [variable('k')]),
              set('a-prj', { scopes: [scope], owner: 'project', priority: true }, [variable('k')]),
            ],
          }),
        ),
      );
      assert.equal(priority.winner.source.kind === 'varset' && priority.winner.source.owner, 'organization', scope);
    }
  });

  it('owner outranks scope: a priority org-owned workspace-scoped set beats a priority project-owned project-scoped one', () => {
    const result = only(
      resolveVariables(
        input({
          varsets: [
            set('b', { scopes: ['project'], owner: 'project', priority: true }, [variable('k')]),
            set('a', { scopes: ['workspace'], priority: true }, [variable('k')]),
          ],
        }),
      ),
    );
    assert.equal(result.winner.level, 3);
    assert.equal(result.overridden[0]!.level, 4);
  });

  it('refuses a set given twice or through no scope', () => {
    const s = set('s', { scopes: ['workspace'] }, [variable('k')]);
    assert.throws(() => resolveVariables(input({ varsets: [s, { ...s, scopes: ['project'] }] })));
    assert.throws(() => resolveVariables(input({ varsets: [{ ...s, scopes: [] }] })));
  });
});

describe('resolveVariables: overridden lists', () => {
  it('lists every overridden value highest first, for each variable independently, whatever the input order', () => {
    const parts: Partial<ResolveInput<TestVar>>[] = [
      { workspaceVariables: [variable('a'), variable('b', 'env')] },
      { runVariables: [runVariable('a'), runVariable('c')] },
      { varsets: [set('g', { scopes: ['global'] }, [variable('a'), variable('b', 'env'), variable('c')])] },
      { varsets: [set('p1', { scopes: ['project'], priority: true }, [variable('b', 'env')])] },
      { varsets: [set('w2', { scopes: ['workspace'] }, [variable('a'), variable('c')])] },
      { varsets: [set('w1', { scopes: ['workspace'] }, [variable('a')])] },
    ];
    const expected = resolveVariables(merge(...parts));
    const summary = expected.map((r) => [
      r.key,
      r.category,
      [r.winner, ...r.overridden].map((o) => (o.source.kind === 'varset' ? o.source.name : o.source.kind)),
    ]);
    assert.deepEqual(summary, [
      ['a', 'terraform', ['run', 'workspace', 'w1', 'w2', 'g']],
      ['b', 'env', ['p1', 'workspace', 'g']],
      ['c', 'terraform', ['run', 'w2', 'g']],
    ]);
    for (const order of permutations(parts)) assert.deepEqual(resolveVariables(merge(...order)), expected);
  });
});
