import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely, Selectable } from 'kysely';
import type { Store } from '../db/connect.js';
import type { Database, TokenTable } from '../db/schema.js';
import { compiledOnce } from '../db/compiled-once.js';
import { newId, now, randomAlphanumeric } from '../ids.js';
import { projectGrantRights, workspaceGrantRights } from './policy.js';
import type { Subject, TeamRights } from './subject.js';

/** Tokens are stored only as the hex SHA-256 of their secret. */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateSecret(): string {
  return randomAlphanumeric(64);
}

const CONFIGURED_ADMIN = 'site-admin token from VARSETD_ADMIN_TOKEN';
const GENERATED_ADMIN = 'site-admin token generated on first start';

const findToken = compiledOnce((db, tokenHash: string) =>
  db
    .selectFrom('tokens')
    .leftJoin('teams', 'teams.id', 'tokens.team_id')
    .select([
      'tokens.id',
      'tokens.kind',
      'tokens.organization_id',
      'tokens.team_id',
      'tokens.expired_at',
      'teams.is_owners',
      'teams.manage_workspaces',
      'teams.manage_projects',
      'teams.read_workspaces',
      'teams.read_projects',
    ])
    .where('tokens.token_hash', '=', tokenHash),
);

/**
 * The subject a bearer secret stands for, or null when the token is unknown or expired.
 * One query finds the token with its team's organization access; a team that is neither
 * owners nor manage-projects costs two more, run together, for its workspace and project grants.
 */
export async function authenticate(store: Store, secret: string): Promise<Subject | null> {
  const [row] = await findToken(store.db, hashToken(secret));
  if (!row) return null;
  if (row.expired_at !== null && row.expired_at <= now()) return null;
  switch (row.kind) {
    case 'site-admin':
      return { kind: 'site-admin', tokenId: row.id };
    case 'organization':
      return row.organization_id ? { kind: 'organization', tokenId: row.id, organizationId: row.organization_id } : null;
    case 'team': {
      if (!row.organization_id || !row.team_id) return null;
      const owners = row.is_owners;
      if (owners === null) return null;
      const manageProjects = owners || row.manage_projects === true;
      const grants = manageProjects ? { workspaces: new Map(), projects: new Map() } : await loadGrants(store, row.team_id);
      const rights: TeamRights = {
        owners,
        manageProjects,
        manageWorkspaces: manageProjects || row.manage_workspaces === true,
        readWorkspaces: owners || row.read_workspaces === true,
        readProjects: owners || row.read_projects === true,
        ...grants,
      };
      return { kind: 'team', tokenId: row.id, teamId: row.team_id, organizationId: row.organization_id, rights };
    }
    default:
      return null;
  }
}

async function loadGrants(store: Store, teamId: string): Promise<Pick<TeamRights, 'workspaces' | 'projects'>> {
  const [workspaceRows, projectRows] = await Promise.all([
    store.db
      .selectFrom('team_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'team_workspaces.workspace_id')
      .select(['team_workspaces.workspace_id', 'workspaces.project_id', 'team_workspaces.access', 'team_workspaces.runs', 'team_workspaces.variables'])
      .where('team_workspaces.team_id', '=', teamId)
      .execute(),
    store.db.selectFrom('team_projects').selectAll().where('team_id', '=', teamId).execute(),
  ]);
  return {
    workspaces: new Map(workspaceRows.map((r) => [r.workspace_id, { projectId: r.project_id, rights: workspaceGrantRights(r) }])),
    projects: new Map(
      projectRows.map((r) => [
        r.project_id,
        projectGrantRights({
          access: r.access,
          settings: r.settings,
          teams: r.teams,
          variableSets: r.variable_sets,
          workspace: {
            create: r.workspace_create,
            move: r.workspace_move,
            delete: r.workspace_delete,
            runs: r.workspace_runs,
            variables: r.workspace_variables,
          },
        }),
      ]),
    ),
  };
}

export interface IssuedToken {
  row: Selectable<TokenTable>;
  /** The secret: shown once in the create response, never stored. */
  secret: string;
}

/**
 * Issues the one token of a team or of an organization, replacing the previous one (which
 * stops working at once). Runs inside the caller's transaction.
 */
export async function issueToken(
  trx: Kysely<Database>,
  owner: { kind: 'team'; organizationId: string; teamId: string } | { kind: 'organization'; organizationId: string },
  options: { description: string; expiredAt: string | null },
): Promise<IssuedToken> {
  const existing = trx.deleteFrom('tokens').where('kind', '=', owner.kind);
  await (owner.kind === 'team' ? existing.where('team_id', '=', owner.teamId) : existing.where('organization_id', '=', owner.organizationId)).execute();
  const secret = generateSecret();
  const row: Selectable<TokenTable> = {
    id: newId('at'),
    token_hash: hashToken(secret),
    kind: owner.kind,
    organization_id: owner.organizationId,
    team_id: owner.kind === 'team' ? owner.teamId : null,
    description: options.description,
    created_at: now(),
    expired_at: options.expiredAt,
  };
  await trx.insertInto('tokens').values(row).execute();
  return { row, secret };
}

/**
 * Makes sure a site-admin token exists. With `configured`, exactly that secret works (a
 * previously configured, different one is revoked). Without it, a token is generated the
 * first time, written to `<dataDir>/admin-token` (mode 0600) and returned so it can be shown once.
 */
export async function ensureAdminToken(store: Store, configured: string | undefined, dataDir: string): Promise<string | undefined> {
  if (configured !== undefined) {
    const hash = hashToken(configured);
    await store.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('tokens').where('description', '=', CONFIGURED_ADMIN).where('token_hash', '<>', hash).execute();
      const existing = await trx.selectFrom('tokens').select('id').where('token_hash', '=', hash).executeTakeFirst();
      if (!existing) {
        await trx
          .insertInto('tokens')
          .values({ id: newId('at'), token_hash: hash, kind: 'site-admin', organization_id: null, team_id: null, description: CONFIGURED_ADMIN, created_at: now(), expired_at: null })
          .execute();
      }
    });
    return undefined;
  }
  const existing = await store.db.selectFrom('tokens').select('id').where('kind', '=', 'site-admin').executeTakeFirst();
  if (existing) return undefined;
  const secret = generateSecret();
  await store.db
    .insertInto('tokens')
    .values({ id: newId('at'), token_hash: hashToken(secret), kind: 'site-admin', organization_id: null, team_id: null, description: GENERATED_ADMIN, created_at: now(), expired_at: null })
    .execute();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'admin-token'), `${secret}\n`, { mode: 0o600 });
  return secret;
}
