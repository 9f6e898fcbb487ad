import { hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../db/connect.js';
import { transaction, type Db, type Trx } from '../db/transaction.js';
import { newId, now, randomAlphanumeric } from '../common/ids.js';
import type { Token, TokenCreator, TokenOwner } from './model.js';
import { projectGrantRights, workspaceGrantRights } from './grants.js';
import {
  deleteSiteAdminTokens,
  deleteOwnedToken,
  findTeamGrants,
  findTokenByHash,
  insertToken,
  siteAdminTokenExists,
  tokenHashExists,
  touchToken,
} from './store.js';
import type { Subject, TeamRights } from './subject.js';
import type { OrganizationAccessFlag } from './levels.js';
import { makePrivateFolder } from '../common/private-folder.js';

export type { Token, TokenCreator, TokenOwner };

/** Tokens are stored only as the hex SHA-256 of their secret. */
export function hashToken(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function generateSecret(): string {
  return randomAlphanumeric(64);
}

const CONFIGURED_ADMIN = 'site-admin token from VARSETD_ADMIN_TOKEN';
const GENERATED_ADMIN = 'site-admin token generated on first start';

/** A token's subject as the store holds it, with what admitting a request with it takes. */
export interface StoredSubject {
  subject: Subject;
  /** When the token expires, in milliseconds since the epoch; null for never. */
  expiresAt: number | null;
  /** When the token was last recorded as used (null: never), in milliseconds; `admit` moves it on. */
  lastUsedAt: number | null;
  /** The credentials version (migration 0015) the subject was read at. */
  credentialsVersion: number;
}

/**
 * The subject of the token with this hash, or null when there is no such token or it stands
 * for no one (a team token of a team that is gone). One query finds the token with its team's
 * organization access, or a site-admin token with the organizations that refuse it; a team
 * that is neither owners nor manage-projects costs two more, run together, for its workspace
 * and project grants. Expiry is left to `admit`, which checks it at each request.
 */
export async function loadSubject(db: Db, tokenHash: string): Promise<StoredSubject | null> {
  const rows = await findTokenByHash(db, tokenHash);
  const [row] = rows;
  if (!row) return null;
  const subject = await subjectOf(db, row, rows);
  return (
    subject && {
      subject,
      expiresAt: timeOf(row.expired_at),
      lastUsedAt: timeOf(row.last_used_at),
      credentialsVersion: Number(row.credentials_version),
    }
  );
}

type TokenRow = Awaited<ReturnType<typeof findTokenByHash>>[number];

async function subjectOf(db: Db, row: TokenRow, rows: TokenRow[]): Promise<Subject | null> {
  switch (row.kind) {
    case 'site-admin':
      return {
        kind: 'site-admin',
        tokenId: row.id,
        description: describe(row),
        refusedBy: new Set(
          rows.flatMap((r) => (r.refusing_organization_id === null ? [] : [r.refusing_organization_id])),
        ),
      };
    case 'organization':
      return row.organization_id
        ? { kind: 'organization', tokenId: row.id, description: describe(row), organizationId: row.organization_id }
        : null;
    case 'team': {
      if (!row.organization_id || !row.team_id) return null;
      const owners = row.is_owners;
      if (owners === null) return null;
      const manageProjects = owners || row.manage_projects === true;
      const grants = manageProjects
        ? { workspaces: new Map(), projects: new Map() }
        : await teamGrants(db, row.team_id);
      const rights: TeamRights = {
        owners,
        manageProjects,
        manageWorkspaces: manageProjects || row.manage_workspaces === true,
        readWorkspaces: owners || row.read_workspaces === true,
        readProjects: owners || row.read_projects === true,
        ...teamManagementRights(owners, row.other_access),
        ...grants,
      };
      return {
        kind: 'team',
        tokenId: row.id,
        description: describe(row),
        teamId: row.team_id,
        organizationId: row.organization_id,
        rights,
      };
    }
    default:
      return null;
  }
}

/** Who a token stands for, in words a person recognises: what histories and the audit trail show for it. */
function describe(row: TokenRow): string {
  const token = row.description === '' ? '' : ` (token "${row.description}")`;
  if (row.kind === 'site-admin') return `site administrator${token}`;
  if (row.kind === 'organization') return `organization ${row.organization_name ?? row.organization_id}${token}`;
  return `team ${row.team_name ?? row.team_id}${token}`;
}

/** `last-used-at` is kept to the minute: a token used all the time costs one write a minute, not one a request. */
const LAST_USED_RESOLUTION_MS = 60_000;

const timeOf = (timestamp: string | null) => (timestamp === null ? null : Date.parse(timestamp));

/** The subject of a request made `at` (milliseconds) with the token, or null once the token has expired; records the token's use. */
export async function admit(store: Store, stored: StoredSubject, at: number): Promise<Subject | null> {
  if (stored.expiresAt !== null && stored.expiresAt <= at) return null;
  if (stored.lastUsedAt === null || at - stored.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
    stored.lastUsedAt = at;
    await transaction(store, (trx) => touchToken(trx, stored.subject.tokenId, new Date(at).toISOString()));
  }
  return stored.subject;
}

/** What the team may do to other teams, from the flags kept with its other organization access. */
function teamManagementRights(
  owners: boolean,
  otherAccess: string | null,
): Pick<TeamRights, 'manageTeams' | 'manageOrganizationAccess' | 'accessSecretTeams'> {
  const flags = JSON.parse(otherAccess ?? '{}') as Partial<Record<OrganizationAccessFlag, boolean>>;
  const manageOrganizationAccess = owners || flags['manage-organization-access'] === true;
  return {
    manageOrganizationAccess,
    manageTeams: manageOrganizationAccess || flags['manage-teams'] === true,
    accessSecretTeams: owners || flags['access-secret-teams'] === true,
  };
}

async function teamGrants(db: Db, teamId: string): Promise<Pick<TeamRights, 'workspaces' | 'projects'>> {
  const grants = await findTeamGrants(db, teamId);
  return {
    workspaces: new Map(
      grants.workspaces.map((g) => [
        g.workspace_id,
        {
          projectId: g.project_id,
          rights: workspaceGrantRights({ ...g, locking: g.workspace_locking, runTasks: g.run_tasks }),
        },
      ]),
    ),
    projects: new Map(
      grants.projects.map((g) => [
        g.project_id,
        projectGrantRights({
          access: g.access,
          settings: g.settings,
          teams: g.teams,
          variableSets: g.variable_sets,
          workspace: {
            create: g.workspace_create,
            move: g.workspace_move,
            delete: g.workspace_delete,
            runs: g.workspace_runs,
            variables: g.workspace_variables,
            locking: g.workspace_locking,
            'run-tasks': g.workspace_run_tasks,
          },
        }),
      ]),
    ),
  };
}

export interface IssuedToken {
  row: Token;
  /** The secret: shown once in the create response, never stored. */
  secret: string;
}

/** What a new team or organization token is given. */
export interface TokenSettings {
  description: string;
  createdAt: string;
  expiredAt: string | null;
  /** The owner's one token that the singular endpoints replace, or one more described token of a team. */
  legacy: boolean;
  createdBy: TokenCreator;
}

/**
 * Issues a token of a team or of an organization. A legacy token replaces the owner's previous
 * one (which stops working at once). Runs inside the caller's transaction.
 */
export async function issueToken(trx: Trx, owner: TokenOwner, settings: TokenSettings): Promise<IssuedToken> {
  if (settings.legacy) await deleteOwnedToken(trx, owner);
  const secret = generateSecret();
  const row: Token = {
    id: newId('at'),
    kind: owner.kind,
    organization_id: owner.organizationId,
    team_id: owner.kind === 'team' ? owner.teamId : null,
    description: settings.description,
    created_at: settings.createdAt,
    expired_at: settings.expiredAt,
    legacy: settings.legacy,
    created_by_kind: settings.createdBy.kind,
    created_by_id: settings.createdBy.id,
    last_used_at: null,
  };
  await insertToken(trx, row, hashToken(secret));
  return { row, secret };
}

/** Who issues a token: the acting subject. */
export function creatorOf(subject: Subject): TokenCreator {
  switch (subject.kind) {
    case 'site-admin':
      return { kind: 'site-admin', id: null };
    case 'team':
      return { kind: 'team', id: subject.teamId };
    case 'organization':
      return { kind: 'organization', id: subject.organizationId };
  }
}

export {
  findOwnedToken,
  deleteOwnedToken,
  findTeamTokenById,
  findTokenById,
  deleteTokenById,
  teamTokenDescriptionTaken,
  listTeamTokens,
  listTokens,
  type NamedToken,
  type TeamTokenSort,
} from './store.js';

function siteAdminToken(description: string, settings?: Omit<TokenSettings, 'description' | 'legacy'>): Token {
  return {
    id: newId('at'),
    kind: 'site-admin',
    organization_id: null,
    team_id: null,
    description,
    created_at: settings?.createdAt ?? now(),
    expired_at: settings?.expiredAt ?? null,
    legacy: true,
    created_by_kind: settings?.createdBy.kind ?? null,
    created_by_id: settings?.createdBy.id ?? null,
    last_used_at: null,
  };
}

/**
 * The descriptions of the site-admin tokens each start settles (`ensureAdminToken`): a start
 * revokes the tokens bearing them that are not the configured one, so no other token may bear them.
 */
export const SETTLED_ADMIN_DESCRIPTIONS: readonly string[] = [CONFIGURED_ADMIN, GENERATED_ADMIN];

/** Issues one more site-admin token, which starts leave alone. Runs inside the caller's transaction. */
export async function issueSiteAdminToken(trx: Trx, settings: Omit<TokenSettings, 'legacy'>): Promise<IssuedToken> {
  const secret = generateSecret();
  const row = siteAdminToken(settings.description, settings);
  await insertToken(trx, row, hashToken(secret));
  return { row, secret };
}

/** The file a generated site-admin token is written to, in the data folder. */
export const ADMIN_TOKEN_FILE = 'admin-token';

/** What settling the site-admin token did, for the start-up summary. */
export type AdminTokenOutcome =
  /** `VARSETD_ADMIN_TOKEN` is the token; a generated one was revoked, and its file removed when it was here. */
  | { source: 'configured'; revokedGenerated: boolean; removedFile: string | undefined }
  /** Generated by this start and written to `file`, the only place it can be read. */
  | { source: 'generated'; file: string }
  /** None configured, and one exists already: generated on an earlier start (its copy may be in `file`), or configured earlier. */
  | { source: 'existing'; file: string | undefined };

/**
 * Makes sure a site-admin token exists. With `configured`, exactly that secret works: a
 * previously configured, different one and the generated one are revoked, and the generated
 * one's file is removed. Without it, a token is generated the first time and written to
 * `<dataDir>/admin-token` (mode 0600), the only place it can be read.
 */
export async function ensureAdminToken(
  store: Store,
  configured: string | undefined,
  dataDir: string,
): Promise<AdminTokenOutcome> {
  const file = path.join(dataDir, ADMIN_TOKEN_FILE);
  if (configured !== undefined) {
    const hash = hashToken(configured);
    const revokedHashes = await transaction(store, async (trx) => {
      await deleteSiteAdminTokens(trx, CONFIGURED_ADMIN, hash);
      const revoked = await deleteSiteAdminTokens(trx, GENERATED_ADMIN, hash);
      if (!(await tokenHashExists(trx, hash))) await insertToken(trx, siteAdminToken(CONFIGURED_ADMIN), hash);
      return revoked;
    });
    const fileSecret = readTokenFile(file);
    const removedFile = fileSecret !== undefined && revokedHashes.includes(hashToken(fileSecret)) ? file : undefined;
    if (removedFile) fs.rmSync(removedFile, { force: true });
    return { source: 'configured', revokedGenerated: revokedHashes.length > 0, removedFile };
  }
  const secret = generateSecret();
  const created = await transaction(store, async (trx) => {
    if (await siteAdminTokenExists(trx)) return false;
    await insertToken(trx, siteAdminToken(GENERATED_ADMIN), hashToken(secret));
    return true;
  });
  if (!created) return { source: 'existing', file: fs.existsSync(file) ? file : undefined };
  makePrivateFolder(dataDir);
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { source: 'generated', file };
}

function readTokenFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
