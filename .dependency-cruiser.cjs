/**
 * The layering of src/, checked by `npm run check:layers` (part of `npm test` and CI): the rules
 * below, then scripts/check-layers.mjs over dependency-cruiser's JSON, which also refuses any
 * cycle between folders (test/layers.test.ts shows it catching one).
 *
 *   cli → app → routes → service → store → db
 *
 * - src/cli: the command line (serve, workers, migrate, rotate-key, keys, backup, restore, exec's entry, --help); src/main.ts,
 *   the package's bin, refuses an unsupported Node.js, then loads src/cli/main.ts. Nothing of the server imports src/cli.
 * - src/routes: one file per feature (src/routes/<feature>[-<part>].ts), schemas and translation
 *   (HTTP ↔ typed commands); no SQL, no store. Only app.ts imports routes. src/routes/includes.ts:
 *   what `include=` adds of another feature's resources, composed in one place; a route uses it
 *   instead of another feature's serializer. The context of a request's service calls comes
 *   from src/http/context.ts; services take it as src/auth/context.ts types it.
 * - service.ts (and the files it is split into): the rules; no SQL. From src/db it uses
 *   only transaction.ts (transactions, the organization lock, the answer to a lost race).
 * - *store.ts: the only SQL, of its own feature's tables; returns domain objects (real booleans,
 *   no dialect parameters).
 * - src/db: connections, migrations, and everything that differs between SQLite and PostgreSQL.
 *
 * Services, models, rules, stores, the policy and src/db speak the domain only: they raise the
 * errors of src/common/errors.ts, and src/http/domain-errors.ts alone turns them into JSON:API
 * errors. Only routes, serializers, schemas and the HTTP edge import src/jsonapi.
 *
 * A feature (and a route) uses a feature only through its service.ts and model.ts (domain types
 * and pure rules), and, for responses, its serialize.ts and schemas.ts. Features depend one way:
 * no two folders import each other, even through different files (scripts/check-layers.mjs
 * counts each module as its folder, whole, at every depth; the files directly in src/ count as
 * themselves, and only the command line imports those that wire the app). A feature reacts to
 * another only through the one registry of domain events (src/events/registry.ts): the
 * publisher declares the event, the feature that reacts subscribes in its subscriptions.ts, and
 * src/subscribers.ts, which only the app and the command line import, fills the registry at
 * start (an organization's default project, owners team and workspaces, the versions of the
 * sets a deletion changes, a preview's reads, the metrics' counts). No step is handed from the
 * app through routes into services, no diagnostics channel carries events, and no new migration
 * adds a trigger (scripts/check-layers.mjs). Every
 * feature records its writes through src/audit/service.ts; the audit trail uses no feature.
 * The shared folders (db, jsonapi, cache, common, auth, secrets, backup, http, metrics, events) know no feature.
 * Metrics (src/metrics) are the only code that knows prom-client; the rules and stores announce
 * what they count through the registry of events without knowing who listens. `varsetd exec`
 * (src/exec) is a client of the API: it uses nothing of the server but the API's prefix
 * (src/common/api-prefix.ts) and how dynamic credentials variables are read
 * (src/common/dynamic-credentials.ts, which imports nothing), and the web UI (ui/), which the server serves only as built
 * files, uses nothing at all. Nothing imports in a circle.
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
  'workload-identity',
  'imports',
].join('|');
/** A feature's route files: src/routes/<feature>[-<part>].ts, the feature captured as $1. */
const FEATURE_ROUTES = `^src/routes/(${FEATURES})(\\.ts|-[a-z-]+\\.ts)$`;

/**
 * The rule `name`: modules at `from` use a feature only through its entries (service, model, and
 * for responses serializer and schemas), and the files of `own` (a pattern over the `from` match,
 * e.g. its own feature's folder) freely.
 */
function throughFeatureEntries(name, comment, from, ...own) {
  return {
    name,
    severity: 'error',
    comment,
    from: { path: from },
    to: { path: `^src/(${FEATURES})/`, pathNot: [...own, '/(service|serialize|schemas|model)\\.ts$'] },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make layers meaningless and modules impossible to read in order.',
      from: { path: '^(src|ui)/' },
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
      from: { path: `^src/(${FEATURES})/`, pathNot: ['store\\.ts$', 'model\\.ts$'] },
      to: { path: '^src/db/', pathNot: '^src/db/transaction\\.ts$' },
    },
    {
      name: 'models-derive-rows-only',
      severity: 'error',
      comment:
        "A model may derive its types from the schema's row types (a type-only import of src/db/schema.ts) and takes nothing else from src/db.",
      from: { path: `^src/(${FEATURES})/.*model\\.ts$` },
      to: { path: '^src/db/', pathNot: ['^src/db/transaction\\.ts$', '^src/db/schema\\.ts$'] },
    },
    {
      name: 'models-derive-rows-by-type',
      severity: 'error',
      comment: "A model's import of the schema is type-only: nothing of src/db runs with a model.",
      from: { path: `^src/(${FEATURES})/.*model\\.ts$` },
      to: { path: '^src/db/schema\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'routes-through-services',
      severity: 'error',
      comment: 'Routes translate HTTP into calls of services; they never reach a store or the database.',
      from: { path: ['^src/routes/', 'routes\\.ts$'] },
      to: { path: ['store\\.ts$', '^src/db/'] },
    },
    {
      name: 'routes-at-the-top',
      severity: 'error',
      comment: 'Routes are the HTTP edge of the features: only the app (src/app.ts) registers them.',
      from: { path: '^src/', pathNot: ['^src/routes/', '^src/app\\.ts$'] },
      to: { path: '^src/routes/' },
    },
    {
      name: 'routes-named-by-feature',
      severity: 'error',
      comment:
        'A route file is named by its feature (src/routes/<feature>[-<part>].ts), which tells the rule below whose serializer it may use.',
      from: { path: '^src/routes/', pathNot: [FEATURE_ROUTES, '^src/routes/includes\\.ts$'] },
      to: { path: '^src/' },
    },
    {
      name: 'wiring-at-the-top',
      severity: 'error',
      comment:
        "The files directly in src/ that wire the app (buildApp, the settings, what features do in each other's writes) are used by the command line and the app only.",
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/app\\.ts$'] },
      to: { path: '^src/(app|config|subscribers)\\.ts$' },
    },
    {
      name: 'subscriptions-at-start',
      severity: 'error',
      comment:
        "A feature's reactions to other features' events (its subscriptions.ts) are given to the registry once, at start, by src/subscribers.ts alone.",
      from: { path: '^src/', pathNot: '^src/subscribers\\.ts$' },
      to: { path: '^src/.+/subscriptions\\.ts$' },
    },
    {
      name: 'reactions-through-the-registry',
      severity: 'error',
      comment:
        'Features react to each other through the registry of domain events (src/events/registry.ts), not through diagnostics channels, nor through steps the app hands to routes (src/organization-parts.ts, src/deletion-steps.ts, src/common/signals.ts are gone).',
      from: { path: '^src/' },
      to: {
        path: ['^(node:)?diagnostics_channel$', '^src/(organization-parts|deletion-steps|common/signals)\\.ts$'],
      },
    },
    {
      name: 'routes-carry-no-events',
      severity: 'error',
      comment:
        "Routes translate HTTP into service calls: they neither publish nor subscribe (what a write sets off is the service's and its subscribers').",
      from: { path: '^src/routes/' },
      to: { path: ['^src/events/', '^src/subscribers\\.ts$', '^src/.+/subscriptions\\.ts$'] },
    },
    {
      name: 'registry-knows-no-feature',
      severity: 'error',
      comment: 'The registry of domain events is shared by every layer, src/db included: it imports nothing of src/.',
      from: { path: '^src/events/' },
      to: { path: '^src/', pathNot: '^src/events/' },
    },
    throughFeatureEntries(
      'features-through-services',
      'A feature uses another only through its service and model (and, for responses, its serializer and schemas).',
      `^src/(${FEATURES})/`,
      '^src/$1/',
    ),
    throughFeatureEntries(
      'routes-through-feature-entries',
      "A feature's routes use other features as features do: through their service and model (and their serializer and schemas for responses).",
      FEATURE_ROUTES,
      '^src/$1/',
    ),
    throughFeatureEntries(
      'includes-through-feature-entries',
      "What include= adds is read through each feature's service and shown through its serializer.",
      '^src/routes/includes\\.ts$',
    ),
    {
      name: 'includes-in-one-place',
      severity: 'error',
      comment:
        "What include= adds of another feature is composed in src/routes/includes.ts; a feature's routes serialize only its own resources (and the tag bindings projects and workspaces answer as theirs).",
      from: { path: FEATURE_ROUTES },
      to: { path: `^src/(${FEATURES})/[^.]*serialize\\.ts$`, pathNot: ['^src/$1/', '^src/tag-bindings/'] },
    },
    {
      name: 'audit-knows-no-feature',
      severity: 'error',
      comment: 'Every feature records its writes in the audit trail (src/audit); the trail knows none of them.',
      from: { path: '^src/audit/' },
      to: { path: `^src/(${FEATURES})/`, pathNot: '^src/audit/' },
    },
    {
      name: 'domain-knows-no-http',
      severity: 'error',
      comment:
        'Services, models, rules, stores, the policy (src/auth, which types the context services take) and src/db raise domain errors (src/common/errors.ts) and take domain types; only routes, serializers, schemas and the HTTP edge (src/http) know JSON:API and requests.',
      from: { path: ['^src/(db|auth|common)/', `^src/(${FEATURES})/`], pathNot: ['serialize\\.ts$', 'schemas\\.ts$'] },
      to: { path: ['^src/jsonapi/', '^src/http/', '(^|/)node_modules/fastify/'] },
    },
    {
      name: 'neutral-layers-know-no-feature',
      severity: 'error',
      comment:
        'db, jsonapi, cache, common, auth, secrets, backup, http, metrics and events are shared by every feature and depend on none.',
      from: { path: '^src/(db|jsonapi|cache|common|auth|secrets|backup|http|metrics|events)/' },
      to: { path: `^src/(${FEATURES})/` },
    },
    {
      name: 'prom-client-only-in-metrics',
      severity: 'error',
      comment:
        'What varsetd measures and how it is exported live in src/metrics; everything else announces events (src/events/registry.ts).',
      from: { path: '^src/', pathNot: '^src/metrics/' },
      to: { path: '(^|/)node_modules/prom-client/' },
    },
    {
      name: 'metrics-wired-at-the-top',
      severity: 'error',
      comment:
        'Only the app and the command that serves (src/cli/serve.ts) set metrics up, and src/subscribers.ts gives the registry their counting of events; features, services and stores never reach them.',
      from: {
        path: '^src/',
        pathNot: ['^src/metrics/', '^src/app\\.ts$', '^src/cli/serve\\.ts$', '^src/subscribers\\.ts$'],
      },
      to: { path: '^src/metrics/' },
    },
    {
      name: 'cli-at-the-top',
      severity: 'error',
      comment:
        'The command line (src/cli) starts the server and runs its commands; nothing of the server imports it (src/main.ts, the bin, only loads it).',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/main\\.ts$'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'exec-is-a-client',
      severity: 'error',
      comment:
        'varsetd exec talks to a varsetd server over HTTP only; it shares no code with the server but the API prefix (a constant, src/common/api-prefix.ts) and the reading of dynamic credentials variables (src/common/dynamic-credentials.ts: pure functions of the env variables, importing nothing), so that the issuer, the explain view and exec cannot disagree on which configurations are on.',
      from: { path: '^src/exec/' },
      to: {
        path: '^src/',
        pathNot: ['^src/exec/', '^src/common/api-prefix\\.ts$', '^src/common/dynamic-credentials\\.ts$'],
      },
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
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
