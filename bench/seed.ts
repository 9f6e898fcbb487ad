/**
 * Benchmark data. Organizations and projects are created through the API; the bulk
 * (workspaces, variable sets, their variables and assignments) is written straight to the
 * store with multi-row inserts in one transaction, keeping every invariant the API keeps:
 * unique names, unique key+category within a set and across an organization's global sets
 * (`global_organization_id`), assignments only within the organization.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Store } from '../src/db/connect.js';
import type {
  Database,
  VarsetTable,
  VarsetVariableTable,
  WorkspaceTable,
  WorkspaceVariableTable,
} from '../src/db/schema.js';
import { newId } from '../src/common/ids.js';
import { searchable } from '../src/db/search.js';
import { DEFAULT_SETTINGS } from '../src/workspaces/model.js';
import type { Api } from './api.js';

export interface Shape {
  sets: number;
  globalSets: number;
  projects: number;
  workspaces: number;
}

export const MEDIUM: Shape = { sets: 1_000, globalSets: 200, projects: 50, workspaces: 5_000 };
export const LARGE: Shape = { sets: 10_000, globalSets: 2_000, projects: 500, workspaces: 50_000 };

export interface SeededOrganization {
  name: string;
  id: string;
  /** A workspace with sets applying to it in all three ways: global, through its project, directly. */
  listWorkspaceId: string;
  /** A global set holding variables, the target of the write scenario. */
  globalSetId: string;
  counts: {
    projects: number;
    workspaces: number;
    sets: number;
    globalSets: number;
    variables: number;
    workspaceAssignments: number;
    projectAssignments: number;
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same shape. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** `count` distinct members of `items` (all of them when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    if (count >= items.length) return [...items];
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].map((i) => items[i]!);
  }
}

const TEAMS = [
  'platform',
  'payments',
  'identity',
  'search',
  'data',
  'mobile',
  'web',
  'infra',
  'security',
  'billing',
  'growth',
  'ml',
];
const PURPOSES = [
  'aws-credentials',
  'gcp-credentials',
  'azure-credentials',
  'datadog',
  'network',
  'dns',
  'database',
  'secrets',
  'tags',
  'backend',
  'monitoring',
  'vault',
  'kubernetes',
  'cdn',
  'logging',
];
const ENVIRONMENTS = ['prod', 'staging', 'dev', 'qa', 'shared', 'sandbox'];
const SERVICES = ['api', 'worker', 'frontend', 'gateway', 'queue', 'cache', 'db', 'etl', 'auth', 'cron'];
const TERRAFORM_KEYS = [
  'region',
  'instance_type',
  'vpc_id',
  'subnet_ids',
  'environment',
  'owner',
  'cost_center',
  'ami_id',
  'cluster_name',
  'domain',
  'db_instance_class',
  'replica_count',
  'tags',
  'log_retention_days',
  'min_size',
  'max_size',
  'zone_id',
  'kms_key_arn',
];
const ENV_KEYS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_REGION',
  'ARM_CLIENT_ID',
  'ARM_CLIENT_SECRET',
  'ARM_TENANT_ID',
  'GOOGLE_CREDENTIALS',
  'DD_API_KEY',
  'VAULT_ADDR',
  'VAULT_TOKEN',
  'TF_LOG',
  'GITHUB_TOKEN',
];
const VARIABLE_KEYS: Array<{ key: string; category: 'terraform' | 'env' }> = [
  ...TERRAFORM_KEYS.map((key) => ({ key, category: 'terraform' as const })),
  ...ENV_KEYS.map((key) => ({ key, category: 'env' as const })),
];

const CHUNK = 500;

async function insertChunks<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
}

function timestamp(rng: Random, daysAgoMax: number, after?: string): string {
  const base = after ? Date.parse(after) : Date.now() - daysAgoMax * 86_400_000;
  const span = Date.now() - base;
  return new Date(base + Math.floor(rng.next() * span)).toISOString();
}

export async function seedOrganization(
  api: Api,
  store: Store,
  name: string,
  shape: Shape,
  seed: number,
): Promise<SeededOrganization> {
  const rng = new Random(seed);
  await api.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name, email: `ops@${name}.example` } },
  });
  // The organization comes with its default project; the others are created like a user would.
  for (let i = 1; i < shape.projects; i++) {
    await api.post(`/api/v2/organizations/${name}/projects`, {
      data: {
        type: 'projects',
        attributes: {
          name: `${TEAMS[i % TEAMS.length]}-${i}`,
          description: `Projects of the ${TEAMS[i % TEAMS.length]} team`,
        },
      },
    });
  }
  const db = store.db;
  const organizationId = (
    await db.selectFrom('organizations').select('id').where('name', '=', name).executeTakeFirstOrThrow()
  ).id;
  const projectIds = (
    await db
      .selectFrom('projects')
      .select('id')
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((p) => p.id);

  const workspaces: Insertable<WorkspaceTable>[] = [];
  // Every workspace with HCP Terraform's default settings, unlocked.
  const settings = {
    ...DEFAULT_SETTINGS,
    trigger_prefixes: '[]',
    trigger_patterns: '[]',
    locked_by_type: null,
    locked_by_id: null,
    lock_reason: null,
  };
  for (let i = 0; i < shape.workspaces; i++) {
    const created = timestamp(rng, 730);
    const name = `${rng.pick(TEAMS)}-${rng.pick(SERVICES)}-${rng.pick(ENVIRONMENTS)}-${i}`;
    workspaces.push({
      ...settings,
      id: newId('ws'),
      organization_id: organizationId,
      project_id: rng.pick(projectIds),
      name,
      search_name: searchable(name),
      description: rng.next() < 0.3 ? 'Managed by the platform team' : '',
      created_at: created,
      updated_at: timestamp(rng, 0, created),
    });
  }
  const workspaceIds = workspaces.map((w) => w.id);

  const sets: Insertable<VarsetTable>[] = [];
  const variables: Insertable<VarsetVariableTable>[] = [];
  for (let i = 0; i < shape.sets; i++) {
    const global = i < shape.globalSets;
    const name = global
      ? `global-${rng.pick(PURPOSES)}-${i}`
      : `${rng.pick(TEAMS)}-${rng.pick(PURPOSES)}-${rng.pick(ENVIRONMENTS)}-${i}`;
    const created = timestamp(rng, 365);
    const set: Insertable<VarsetTable> = {
      id: newId('varset'),
      organization_id: organizationId,
      project_id: null,
      name,
      search_name: searchable(name),
      description: rng.next() < 0.5 ? `Variables for ${name.replace(/-\d+$/, '').replace(/-/g, ' ')}` : '',
      global: global,
      priority: rng.next() < 0.05,
      created_at: created,
      updated_at: timestamp(rng, 0, created),
    };
    sets.push(set);
    // Keys of global sets carry the set's number: two global sets never share a key and category.
    for (const v of rng.sample(VARIABLE_KEYS, global ? rng.int(1, 6) : rng.int(0, 12))) {
      variables.push({
        id: newId('var'),
        varset_id: set.id,
        global_organization_id: global ? organizationId : null,
        key: global ? `${v.key}_${i}` : v.key,
        value:
          v.category === 'env'
            ? `${v.key.toLowerCase()}-${rng.int(100000, 999999)}`
            : `"${rng.pick(ENVIRONMENTS)}-${rng.int(1, 99)}"`,
        description: rng.next() < 0.3 ? `The ${v.key} of ${name}` : '',
        category: v.category,
        hcl: v.category === 'terraform' && rng.next() < 0.1,
        sensitive: false,
        value_needed: false,
        version_id: newId('vv'),
        created_at: timestamp(rng, 0, created),
      });
    }
  }

  // Of the non-global sets, about a third apply to projects, a bit over half to chosen workspaces, the rest to nothing yet.
  const nonGlobal = sets.slice(shape.globalSets);
  const projectScoped = nonGlobal.slice(0, Math.round(nonGlobal.length * 0.3125));
  const workspaceScoped = nonGlobal.slice(
    projectScoped.length,
    projectScoped.length + Math.round(nonGlobal.length * 0.5625),
  );
  const projectAssignments = new Map<string, { varset_id: string; project_id: string }>();
  const workspaceAssignments = new Map<string, { varset_id: string; workspace_id: string }>();
  const assignProject = (varset_id: string, project_id: string) =>
    projectAssignments.set(`${varset_id}/${project_id}`, { varset_id, project_id });
  const assignWorkspace = (varset_id: string, workspace_id: string) =>
    workspaceAssignments.set(`${varset_id}/${workspace_id}`, { varset_id, workspace_id });
  for (const set of projectScoped) for (const p of rng.sample(projectIds, rng.int(1, 3))) assignProject(set.id, p);
  for (const set of workspaceScoped)
    for (const w of rng.sample(workspaceIds, rng.int(3, 40))) assignWorkspace(set.id, w);

  // The listed workspace gets sets through its project and directly, besides the global ones.
  const listWorkspace = workspaces[7]!;
  for (const set of projectScoped.slice(0, 3)) assignProject(set.id, listWorkspace.project_id);
  for (const set of workspaceScoped.slice(0, 5)) assignWorkspace(set.id, listWorkspace.id);

  await db.transaction().execute(async (trx) => {
    await insertChunks(trx, 'workspaces', workspaces);
    await insertChunks(trx, 'varsets', sets);
    await insertChunks(trx, 'varset_variables', variables);
    await insertChunks(trx, 'varset_projects', [...projectAssignments.values()]);
    await insertChunks(trx, 'varset_workspaces', [...workspaceAssignments.values()]);
  });

  const globalSetId = sets.find((s, i) => i < shape.globalSets && variables.some((v) => v.varset_id === s.id))!.id;
  return {
    name,
    id: organizationId,
    listWorkspaceId: listWorkspace.id,
    globalSetId,
    counts: {
      projects: projectIds.length,
      workspaces: workspaces.length,
      sets: sets.length,
      globalSets: shape.globalSets,
      variables: variables.length,
      workspaceAssignments: workspaceAssignments.size,
      projectAssignments: projectAssignments.size,
    },
  };
}

/**
 * A history of `total` set versions in the organization, written straight to the store: one
 * set (the one answered) gets about `hot` of them, the others share the rest evenly. Each version changes
 * one variable's value, as most writes do.
 */
export async function seedHistory(
  store: Store,
  organizationId: string,
  total: number,
  hot: number,
): Promise<{ hotSetId: string; versions: number }> {
  const sets = await store.db
    .selectFrom('varsets')
    .select(['id', 'name', 'project_id'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
  const hotSet = sets[0]!;
  const random = new Random(3);
  const perOther = Math.floor((total - hot) / (sets.length - 1));
  // The hot set takes what does not divide evenly, so that the history holds exactly `total`.
  const hotCount = total - perOther * (sets.length - 1);
  const started = Date.parse('2026-01-01T00:00:00.000Z');
  const rowsOf = function* (): Generator<Insertable<Database['varset_versions']>> {
    for (const [index, set] of sets.entries()) {
      const count = index === 0 ? hotCount : perOther;
      for (let number = 1; number <= count; number++) {
        const key = `setting_${random.int(0, 19)}`;
        yield {
          id: newId('vsv'),
          varset_id: set.id,
          organization_id: organizationId,
          project_id: set.project_id,
          number,
          action: number === 1 ? 'create' : 'update',
          rolled_back_to: null,
          varset_name: set.name,
          created_at: new Date(started + index * 1000 + number * 60_000).toISOString(),
          actor_token_id: 'at-benchmark',
          actor_kind: 'team',
          actor_team_id: 'team-benchmark',
          actor_description: 'team owners (token "benchmark")',
          request_id: '00000000-0000-4000-8000-000000000000',
          changes: JSON.stringify([
            {
              target: 'variable',
              id: `var-${key}`,
              key,
              category: 'terraform',
              action: 'changed',
              field: 'value',
              before: `v${number - 1}`,
              after: `v${number}`,
              sensitive: false,
            },
          ]),
          sealed: null,
        };
      }
    }
  };
  let batch: Insertable<Database['varset_versions']>[] = [];
  let versions = 0;
  await store.db.transaction().execute(async (trx) => {
    for (const row of rowsOf()) {
      batch.push(row);
      if (batch.length === 1000) {
        await trx.insertInto('varset_versions').values(batch).execute();
        versions += batch.length;
        batch = [];
      }
    }
    if (batch.length) await trx.insertInto('varset_versions').values(batch).execute();
    versions += batch.length;
  });
  return { hotSetId: hotSet.id, versions };
}

/**
 * An audit trail of `total` events in the organization, a minute apart and ending now, written
 * straight to the store (its triggers keep the hourly counts, as they do for every write).
 */
export async function seedAuditTrail(store: Store, organizationId: string, total: number): Promise<number> {
  const random = new Random(4);
  const ending = Date.now();
  const actions = ['create', 'update', 'destroy'] as const;
  let written = 0;
  await store.db.transaction().execute(async (trx) => {
    for (let from = 0; from < total; from += 1000) {
      const rows = Array.from({ length: Math.min(1000, total - from) }, (_, i) => {
        const index = from + i;
        const key = `setting_${random.int(0, 19)}`;
        return {
          id: crypto.randomUUID(),
          organization_id: organizationId,
          timestamp: new Date(ending - (total - index) * 60_000).toISOString(),
          auth_type: 'Client',
          accessor_id: 'at-benchmark',
          auth_description: 'team owners (token "benchmark")',
          request_id: crypto.randomUUID(),
          resource_id: `var-${key}`,
          resource_type: 'var',
          action: random.pick(actions),
          meta: JSON.stringify({ key, category: 'terraform', sensitive: false }),
        };
      });
      await trx.insertInto('audit_events').values(rows).execute();
      written += rows.length;
    }
  });
  return written;
}

/**
 * PostgreSQL's autovacuum vacuums and analyzes freshly loaded tables within a minute or so; do
 * it now, so every run sees the plans of a settled database (statistics, and a visibility map
 * that lets counts read indexes alone), and checkpoint. SQLite has no such background work, and varsetd runs
 * no ANALYZE of its own, so its store is left as loaded.
 */
export async function analyze(store: Store): Promise<void> {
  if (store.dialect === 'postgres') {
    await sql`vacuum analyze`.execute(store.db);
    // Flushes the loaded pages now rather than while the next scenario runs (needs a superuser or pg_checkpoint).
    await sql`checkpoint`.execute(store.db).catch(() => undefined);
  }
}

/** The same variables of its own (`variables`) for every workspace of the organization, in one transaction; how many were written. */
export async function seedWorkspaceVariables(
  store: Store,
  organizationId: string,
  variables: Pick<Insertable<WorkspaceVariableTable>, 'key' | 'value' | 'category' | 'hcl'>[],
): Promise<number> {
  const workspaces = await store.db
    .selectFrom('workspaces')
    .select('id')
    .where('organization_id', '=', organizationId)
    .execute();
  const rows: Insertable<WorkspaceVariableTable>[] = workspaces.flatMap(({ id }) =>
    variables.map((v) => ({
      ...v,
      id: newId('var'),
      workspace_id: id,
      description: '',
      sensitive: false,
      value_needed: false,
      version_id: newId('vv'),
      created_at: new Date().toISOString(),
    })),
  );
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('workspace_variables')
        .values(rows.slice(i, i + 500))
        .execute();
  });
  return rows.length;
}
