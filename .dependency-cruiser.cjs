/**
 * The layering of src/, checked by `npm run check:layers` (part of `npm test` and CI).
 *
 *   routes → service → store → db
 *
 * - routes.ts: schemas and translation (HTTP ↔ typed commands); no SQL, no store.
 * - service.ts (and the files it is split into): the rules; no SQL. From src/db it uses
 *   only transaction.ts (transactions, the organization lock, the answer to a lost race).
 * - *store.ts: the only SQL; returns domain objects (real booleans, no dialect parameters).
 * - src/db: connections, migrations, and everything that differs between SQLite and PostgreSQL.
 *
 * A feature uses another only through its service.ts and model.ts (domain types and pure
 * rules), and, for responses, its serialize.ts and schemas.ts. Every feature records its writes
 * through src/audit/service.ts; the audit trail uses no feature. The shared folders (db, jsonapi,
 * cache, common, auth, secrets, http, metrics) know no feature. Metrics (src/metrics) are the
 * only code that knows prom-client; the rules and stores announce what they count through
 * src/common/signals.ts without knowing who listens. `varsetd exec` (src/exec) is a client of
 * the API: it uses nothing of the server but the API's prefix (src/common/api-prefix.ts), and
 * the web UI (ui/), which the server serves only as built files, uses nothing at all. Nothing
 * imports in a circle.
 */
const FEATURES = [
  'organizations',
  'projects',
  'workspaces',
  'teams',
  'tokens',
  'team-access',
  'varsets',
  'variables',
  'workspace-variables',
  'effective',
  'configuration-versions',
  'runs',
  'run-events',
  'comments',
  'tag-bindings',
  'audit',
  'notifications',
].join('|');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make layers meaningless and modules impossible to read in order.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'sql-only-in-stores',
      severity: 'error',
      comment: 'Only stores (and src/db) build queries.',
      from: { path: '^src/', pathNot: ['^src/db/', 'store\\.ts$'] },
      to: { path: '(^|/)node_modules/kysely/' },
    },
    {
      name: 'services-use-transactions-only',
      severity: 'error',
      comment: 'A service reaches the database through its store; from src/db it takes only transactions.',
      from: { path: `^src/(${FEATURES})/`, pathNot: ['store\\.ts$', 'routes\\.ts$'] },
      to: { path: '^src/db/', pathNot: '^src/db/transaction\\.ts$' },
    },
    {
      name: 'routes-through-services',
      severity: 'error',
      comment: 'Routes translate HTTP into calls of services; they never reach a store or the database.',
      from: { path: 'routes\\.ts$' },
      to: { path: ['store\\.ts$', '^src/db/'] },
    },
    {
      name: 'features-through-services',
      severity: 'error',
      comment: 'A feature uses another only through its service and model (and, for responses, its serializer and schemas).',
      from: { path: `^src/(${FEATURES})/` },
      to: { path: `^src/(${FEATURES})/`, pathNot: ['^src/$1/', '/(service|serialize|schemas|model)\\.ts$'] },
    },
    {
      name: 'audit-knows-no-feature',
      severity: 'error',
      comment: 'Every feature records its writes in the audit trail (src/audit); the trail knows none of them.',
      from: { path: '^src/audit/' },
      to: { path: `^src/(${FEATURES})/`, pathNot: '^src/audit/' },
    },
    {
      name: 'neutral-layers-know-no-feature',
      severity: 'error',
      comment: 'db, jsonapi, cache, common, auth, secrets, http and metrics are shared by every feature and depend on none.',
      from: { path: '^src/(db|jsonapi|cache|common|auth|secrets|http|metrics)/' },
      to: { path: `^src/(${FEATURES})/` },
    },
    {
      name: 'prom-client-only-in-metrics',
      severity: 'error',
      comment: 'What varsetd measures and how it is exported live in src/metrics; everything else announces events (src/common/signals.ts).',
      from: { path: '^src/', pathNot: '^src/metrics/' },
      to: { path: '(^|/)node_modules/prom-client/' },
    },
    {
      name: 'metrics-wired-at-the-top',
      severity: 'error',
      comment: 'Only the app and the command line set metrics up; features, services and stores never reach them.',
      from: { path: '^src/', pathNot: ['^src/metrics/', '^src/app\\.ts$', '^src/main\\.ts$'] },
      to: { path: '^src/metrics/' },
    },
    {
      name: 'exec-is-a-client',
      severity: 'error',
      comment: 'varsetd exec talks to a varsetd server over HTTP only; it shares no code with the server but the API prefix (a constant, src/common/api-prefix.ts).',
      from: { path: '^src/exec/' },
      to: { path: '^src/', pathNot: ['^src/exec/', '^src/common/api-prefix\\.ts$'] },
    },
    {
      name: 'ui-is-a-client',
      severity: 'error',
      comment: 'The web UI (ui/) talks to varsetd through the public API only; it shares no code with the server.',
      from: { path: '^ui/' },
      to: { path: '^src/' },
    },
    {
      name: 'server-knows-no-ui',
      severity: 'error',
      comment: 'The server serves the built UI as files (src/ui/static.ts); it imports nothing of ui/.',
      from: { path: '^src/' },
      to: { path: '^ui/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
