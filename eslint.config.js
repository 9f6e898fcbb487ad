// `npm run lint`: typescript-eslint's strict type-checked rules over the TypeScript of the server,
// the web UI, the tests, the benchmarks and the scripts (each file checked with the tsconfig.json
// nearest to it), and ESLint's recommended rules over the plain JavaScript files.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Built, installed, recorded or generated (ui/src/api/schema.d.ts: npm run ui:types).
  { ignores: ['dist/', 'node_modules/', '.cache/', 'bench/results/', 'bench/tmp/', 'data/', 'ui/src/api/schema.d.ts'] },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['{src,test,bench,scripts,conformance}/**/*.ts', 'ui/src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/no-unnecessary-condition': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // As TypeScript's noUnusedLocals: `_`-named and rest-sibling names drop fields deliberately.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // With noUncheckedIndexedAccess, `rows[0]!` on a row known to exist is the code's idiom (361 sites).
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers and booleans in template strings (URLs, messages, SQL text) are deliberate.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `return callback(…)` / `return done(…)` to end a callback-style function is deliberate (46 sites).
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Fastify plugins and hooks are async by contract (FastifyPluginAsync, hooks without `done`) (62 sites).
      '@typescript-eslint/require-await': 'off',
      // Kysely's expression builder is destructured (`({ exists, selectFrom }) =>`), as its docs do (29 sites).
      '@typescript-eslint/unbound-method': 'off',
      // Number(row.count) is needed: PostgreSQL returns bigint and counts as strings where the row types say number (32 sites).
      '@typescript-eslint/no-unnecessary-type-conversion': 'off',
      // Only String(x) of library values typed unknown (a migration's error, ajv's params) (2 sites).
      '@typescript-eslint/no-base-to-string': 'off',
      // fromJson<T>() and selectVarsets<Q>() return the caller's type on purpose (4 sites).
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      // `{}` is Kysely's type of an empty selection and TypeBox's of an absent part.
      '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always' }],
    },
  },
  {
    // Kysely's migrations and the helpers of its query builders work on any schema: `Kysely<any>`,
    // `ExpressionBuilder<Database, any>`, as Kysely's own docs write them (32 sites).
    files: [
      'src/db/**/*.ts',
      'src/effective/reach-store.ts',
      'src/varsets/list-store.ts',
      'src/varsets/arranged-list-store.ts',
      'src/variables/store.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['test/**/*.ts', 'conformance/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      // node:test runs and awaits the tests a file declares; test() and describe() need no await.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      // The tests, benchmarks and scripts read JSON:API responses as untyped JSON (`res.body.data.map((d: any) => …)`),
      // thousands of sites: typing every response shape is a rewrite of the tests, not a lint fix.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    },
  },
);
