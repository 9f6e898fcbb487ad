/**
 * What scripts/sql-snapshots.ts runs: a little data made through the API (`seed`), and for every
 * exported function of every store, one or more cases calling it with representative inputs
 * (each variant of a dynamic query: filters, search, pages, includes). A store function without
 * a case fails test/sql-snapshots.test.ts. Cases run in the order written, on one database: a
 * case that changes rows uses rows of its own (made by an earlier case) or ids that match none.
 */
import type { FastifyInstance } from 'fastify';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { Store } from '../src/db/connect.js';
import type { Trx } from '../src/db/transaction.js';
import { ADMIN_TOKEN } from '../test/support/requests.js';
import { tar } from '../test/support/factories/runs.js';
import * as audit from '../src/audit/store.js';
import * as auth from '../src/auth/store.js';
import * as comments from '../src/comments/store.js';
import * as cvs from '../src/configuration-versions/store.js';
import * as reach from '../src/effective/reach-store.js';
import * as effective from '../src/effective/store.js';
import * as queue from '../src/notifications/queue-store.js';
import * as notifications from '../src/notifications/store.js';
import * as organizations from '../src/organizations/store.js';
import * as projects from '../src/projects/store.js';
import * as runEvents from '../src/run-events/store.js';
import * as runs from '../src/runs/store.js';
import * as secrets from '../src/secrets/store.js';
import * as tagBindings from '../src/tag-bindings/store.js';
import * as teamAccess from '../src/team-access/store.js';
import * as teams from '../src/teams/store.js';
import * as variables from '../src/variables/store.js';
import * as assignments from '../src/varsets/assignment-store.js';
import * as varsetList from '../src/varsets/list-store.js';
import * as arrangedList from '../src/varsets/arranged-list-store.js';
import * as varsets from '../src/varsets/store.js';
import * as varsetStates from '../src/varsets/state-store.js';
import * as versions from '../src/varsets/versions/store.js';
import * as consumers from '../src/workspaces/consumer-store.js';
import * as workspaces from '../src/workspaces/store.js';
import * as claim from '../src/db/claim.js';
import * as compiled from '../src/db/compiled-once.js';
import * as json from '../src/db/json.js';
import * as order from '../src/db/order.js';
import * as page from '../src/db/page.js';
import * as rowLock from '../src/db/row-lock.js';
import * as search from '../src/db/search.js';
import * as transactions from '../src/db/transaction.js';
import * as tags from '../src/workspaces/tag-store.js';
import * as identityKeys from '../src/workload-identity/store.js';

/** The ids of what `seed` made. */
export interface Seeded {
  orgName: string;
  orgId: string;
  defaultProjectId: string;
  projectId: string;
  workspaceId: string;
  otherWorkspaceId: string;
  teamId: string;
  varsetId: string;
  globalVarsetId: string;
  varsetVariableId: string;
  workspaceVariableId: string;
  cvId: string;
  runId: string;
  runEventId: string;
  commentId: string;
  teamWorkspaceId: string;
  teamProjectId: string;
  notificationId: string;
  versionId: string;
}

export type Case = (store: Store, s: Seeded) => Promise<unknown>;

const T = '2026-01-01T00:00:00.000Z';
const LATER = '9999-01-01T00:00:00.000Z';
const NONE = 'none-such';
const PAGE = { number: 2, size: 20 };
/** Runs `work` in a transaction of the stores' own, which sends what `appendAtCommit` held back before it commits. */
const inTransaction = <R>(store: Store, work: (trx: Trx) => R | Promise<R>) =>
  transactions.transaction(store, async (trx) => work(trx));

export async function seed(app: FastifyInstance, store: Store): Promise<Seeded> {
  const call = async (method: string, url: string, body?: unknown, status = [200, 201, 204]) => {
    const res = await app.inject({
      method: method as 'GET',
      url: `/api/v2${url}`,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (!status.includes(res.statusCode))
      throw new Error(`seed: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.body ? JSON.parse(res.body).data : undefined;
  };
  const orgName = 'snap';
  await call('POST', '/organizations', {
    data: { type: 'organizations', attributes: { name: orgName, email: 'ops@snap.test' } },
  });
  const found = await organizations.findOrganizationByName(store.db, orgName);
  const orgId = found!.organization.id;
  const defaultProjectId = (await workspaces.defaultProjectId(store.db, orgId))!;
  const project = await call('POST', `/organizations/${orgName}/projects`, {
    data: { type: 'projects', attributes: { name: 'p1' } },
  });
  const workspace = await call('POST', `/organizations/${orgName}/workspaces`, {
    data: {
      type: 'workspaces',
      attributes: { name: 'w1' },
      relationships: { project: { data: { type: 'projects', id: project.id } } },
    },
  });
  const other = await call('POST', `/organizations/${orgName}/workspaces`, {
    data: { type: 'workspaces', attributes: { name: 'w2' } },
  });
  await call('POST', `/workspaces/${workspace.id}/relationships/tags`, {
    data: [{ type: 'tags', attributes: { name: 'blue' } }],
  });
  const team = await call('POST', `/organizations/${orgName}/teams`, {
    data: { type: 'teams', attributes: { name: 'devs' } },
  });
  await call('POST', `/teams/${team.id}/authentication-tokens`, {
    data: { type: 'authentication-tokens', attributes: { description: 'ci' } },
  });
  const teamWorkspace = await call('POST', '/team-workspaces', {
    data: {
      type: 'team-workspaces',
      attributes: { access: 'write' },
      relationships: {
        team: { data: { type: 'teams', id: team.id } },
        workspace: { data: { type: 'workspaces', id: workspace.id } },
      },
    },
  });
  const teamProject = await call('POST', '/team-projects', {
    data: {
      type: 'team-projects',
      attributes: { access: 'read' },
      relationships: {
        team: { data: { type: 'teams', id: team.id } },
        project: { data: { type: 'projects', id: project.id } },
      },
    },
  });
  const variable = (key: string, sensitive = false) => ({
    type: 'vars',
    attributes: { key, value: 'v', category: 'terraform', sensitive },
  });
  const varset = await call('POST', `/organizations/${orgName}/varsets`, {
    data: {
      type: 'varsets',
      attributes: { name: 'set1' },
      relationships: {
        vars: { data: [variable('region'), variable('secret', true)] },
        workspaces: { data: [{ type: 'workspaces', id: workspace.id }] },
        projects: { data: [{ type: 'projects', id: project.id }] },
      },
    },
  });
  const globalVarset = await call('POST', `/organizations/${orgName}/varsets`, {
    data: {
      type: 'varsets',
      attributes: { name: 'g1', global: true },
      relationships: { vars: { data: [variable('zone')] } },
    },
  });
  const vars = await call('GET', `/varsets/${varset.id}/relationships/vars`);
  const workspaceVariable = await call('POST', `/workspaces/${workspace.id}/vars`, {
    data: { type: 'vars', attributes: { key: 'size', value: '1', category: 'terraform' } },
  });
  const cv = await call('POST', `/workspaces/${workspace.id}/configuration-versions`, {
    data: { type: 'configuration-versions', attributes: {} },
  });
  const upload = await app.inject({
    method: 'PUT',
    url: new URL(cv.attributes['upload-url']).pathname,
    headers: { 'content-type': 'application/octet-stream' },
    payload: gzipSync(tar({ 'main.tf': '' })),
  });
  if (upload.statusCode !== 200) throw new Error(`seed: upload answered ${upload.statusCode}`);
  const run = await call('POST', '/runs', {
    data: {
      type: 'runs',
      attributes: {},
      relationships: {
        workspace: { data: { type: 'workspaces', id: workspace.id } },
        'configuration-version': { data: { type: 'configuration-versions', id: cv.id } },
      },
    },
  });
  const comment = await call('POST', `/runs/${run.id}/comments`, {
    data: { type: 'comments', attributes: { body: 'hello' } },
  });
  const events = await call('GET', `/runs/${run.id}/run-events`);
  const history = await call('GET', `/varsets/${varset.id}/versions`);
  const notification =
    (await notifications.insertConfiguration(store.db, {
      id: 'nc-snap',
      organizationId: orgId,
      organizationName: orgName,
      name: 'hook',
      destinationType: 'generic',
      url: 'https://hooks.example/x',
      sealedToken: null,
      enabled: true,
      triggers: ['varset:changed'],
      createdAt: T,
      updatedAt: T,
    }),
    'nc-snap');
  // A change the configuration above is told of: a delivery in the queue.
  await call('PATCH', `/varsets/${varset.id}`, {
    data: { type: 'varsets', id: varset.id, attributes: { description: 'changed' } },
  });
  return {
    orgName,
    orgId,
    defaultProjectId,
    projectId: project.id,
    workspaceId: workspace.id,
    otherWorkspaceId: other.id,
    teamId: team.id,
    varsetId: varset.id,
    globalVarsetId: globalVarset.id,
    varsetVariableId: vars[0].id,
    workspaceVariableId: workspaceVariable.id,
    cvId: cv.id,
    runId: run.id,
    runEventId: events[0].id,
    commentId: comment.id,
    teamWorkspaceId: teamWorkspace.id,
    teamProjectId: teamProject.id,
    notificationId: notification,
    versionId: history[0].id,
  };
}

const workspaceOf = async (store: Store, s: Seeded) =>
  (await workspaces.findWorkspaceWithOrganization(store.db, { id: s.workspaceId }))!.workspace;
const projectOf = async (store: Store, s: Seeded) =>
  (await projects.findProjectWithOrganization(store.db, s.projectId))!.project;
const teamOf = async (store: Store, s: Seeded) => (await teams.findTeamWithOrganization(store.db, s.teamId))!.team;
const place = (s: Seeded) => ({ id: s.workspaceId, organization_id: s.orgId, project_id: s.projectId });
const varsetOwner = (s: Seeded) => ({ kind: 'varset', id: s.varsetId }) as const;
const workspaceOwner = (s: Seeded) => ({ kind: 'workspace', id: s.workspaceId }) as const;
const newVariable = (owner: { kind: 'varset' | 'workspace'; id: string }, id: string, key: string) =>
  ({
    id,
    owner,
    key,
    value: 'v',
    description: '',
    category: 'terraform',
    hcl: false,
    sensitive: false,
    version_id: `${id}-v`,
    created_at: T,
  }) as const;
const auditEvent = (s: Seeded, id: string) => ({
  id,
  organizationId: s.orgId,
  timestamp: T,
  auth: { type: 'Client' as const, accessorId: 'at-1', description: 'admin' },
  requestId: null,
  resource: { id: s.varsetId, type: 'varset', action: 'update', meta: null },
});

/** The query helpers of src/db that build or send SQL for the stores, beside the stores' own cases. */
export const DB_HELPERS = [
  'src/db/claim.ts',
  'src/db/compiled-once.ts',
  'src/db/json.ts',
  'src/db/order.ts',
  'src/db/page.ts',
  'src/db/row-lock.ts',
  'src/db/search.ts',
  'src/db/transaction.ts',
];

const names = (store: Store) => store.db.selectFrom('organizations').select('name');
const countOrganizations = (store: Store) => () =>
  sql<number>`${store.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n'))}`;

/** Every store file's cases (and those of DB_HELPERS): its exported functions by name, each with its cases by name. */
export const CASES = {
  'src/db/claim.ts': {
    skippingLockedRows: {
      'a claim': (store) =>
        inTransaction(store, (trx) =>
          claim.skippingLockedRows(trx, trx.selectFrom('varset_notification_deliveries').select('id')).execute(),
        ),
    },
  },
  'src/db/compiled-once.ts': {
    compiledOnce: {
      'a value and a list': (store, s) =>
        compiled.compiledOnce((db, id: string, ids: string[]) =>
          db.selectFrom('workspaces').select('id').where('organization_id', '=', id).where('id', 'in', ids),
        )(store.db, s.orgId, [s.workspaceId, NONE]),
    },
    boundOnce: {
      'a value, bound and sent by the caller': (store, s) =>
        store.db.executeQuery(
          compiled.boundOnce((db, id: string) =>
            db.selectFrom('workspaces').select('id').where('organization_id', '=', id),
          )(store.db, s.orgId),
        ),
    },
  },
  'src/db/json.ts': {
    fromJson: { 'a value (builds no statement)': async () => json.fromJson('[1]') },
    jsonArrayOf: {
      'ordered values': (store) =>
        store.db.selectNoFrom(json.jsonArrayOf(store.db, sql.lit(1), [sql.lit(1)]).as('a')).execute(),
    },
    jsonObjectOf: {
      'two fields': (store) =>
        store.db.selectNoFrom(json.jsonObjectOf(store.db, { a: sql.lit(1), b: sql.lit('b') }).as('o')).execute(),
    },
  },
  'src/db/order.ts': {
    byCodePoint: { 'a column': (store) => names(store).orderBy(order.byCodePoint(store.db, 'name')).execute() },
    isPostgres: { 'a handle (builds no statement)': async (store) => order.isPostgres(store.db) },
  },
  'src/db/page.ts': {
    fetchPage: {
      'a page': (store) =>
        page.fetchPage(store.db, store.db.selectFrom('organizations'), PAGE, (q) => q.select('name')),
    },
    limitToPage: { 'a page': (store) => page.limitToPage(names(store), PAGE).execute() },
    pageWithTotal: {
      'a page with rows': (store) =>
        page.pageWithTotal(
          store.db,
          page.limitToPage(names(store), { number: 1, size: 20 }),
          countOrganizations(store),
        ),
      'a page past the last': (store) =>
        page.pageWithTotal(store.db, page.limitToPage(names(store), PAGE), countOrganizations(store)),
    },
    splitTotal: { 'no rows': (store) => page.splitTotal(store.db, [], countOrganizations(store)) },
    withTotal: {
      'a page': (store) => page.withTotal(page.limitToPage(names(store), PAGE), countOrganizations(store)).execute(),
    },
  },
  'src/db/row-lock.ts': {
    lockConfigurationVersionRow: {
      share: (store, s) => inTransaction(store, (trx) => rowLock.lockConfigurationVersionRow(trx, s.cvId, 'share')),
      update: (store, s) => inTransaction(store, (trx) => rowLock.lockConfigurationVersionRow(trx, s.cvId, 'update')),
    },
  },
  'src/db/search.ts': {
    contains: {
      'a folded column': (store) =>
        names(store)
          .where(search.contains(sql.ref('search_name'), 'Sn'))
          .execute(),
    },
    containsPattern: { 'a text (builds no statement)': async () => search.containsPattern('a%b') },
    containsText: {
      'a column': (store) =>
        names(store)
          .where(search.containsText(sql.ref('name'), 'sn'))
          .execute(),
    },
    matches: {
      'a pattern': (store) =>
        names(store)
          .where(search.matches(sql.ref('search_name'), 'sn%'))
          .execute(),
    },
    searchable: { 'a text (builds no statement)': async () => search.searchable('Snap') },
  },
  'src/db/transaction.ts': {
    transaction: {
      'a read': (store) =>
        transactions.transaction(store, (trx) => trx.selectFrom('organizations').select('id').execute()),
    },
    appendAtCommit: {
      "a set's new time, its version and an event, held back to the end (one statement on PostgreSQL)": (store, s) =>
        inTransaction(store, async (trx) => {
          const version = (await versions.findVersion(trx, s.versionId))!;
          const { organizationName: _name, ...recorded } = version;
          varsets.touchVarsetAt(trx, s.varsetId, T);
          versions.insertVersion(trx, { ...recorded, id: 'vv-snap-2', number: 98, sealed: {} });
          audit.insertAuditEvent(trx, auditEvent(s, 'ae-snap-2'));
        }),
    },
    takenBack: {
      'a read, taken back': (store) =>
        transactions.takenBack(store, (trx) => trx.selectFrom('organizations').select('id').execute()),
    },
    withOrganizationLocked: {
      'by id': (store, s) => transactions.withOrganizationLocked(store, s.orgId, async () => undefined),
      'by id, taken back': (store, s) =>
        transactions.withOrganizationLocked(store, s.orgId, async () => undefined, { takeBack: true }),
      "by a set's id": (store, s) =>
        transactions.withOrganizationLocked(store, { varsetId: s.varsetId }, async () => undefined),
    },
  },
  'src/audit/store.ts': {
    deleteEmptyHours: { 'hours without events': (store) => audit.deleteEmptyHours(store.db) },
    deleteEventsBefore: {
      "a batch of an organization's": (store, s) => audit.deleteEventsBefore(store.db, s.orgId, T, 100),
    },
    findOrganizationId: { 'by name': (store, s) => audit.findOrganizationId(store.db, s.orgName) },
    findOrganizationsWithEventsBefore: {
      'before a time': (store) => audit.findOrganizationsWithEventsBefore(store.db, T),
    },
    insertAuditEvent: {
      'an event': (store, s) => inTransaction(store, (trx) => audit.insertAuditEvent(trx, auditEvent(s, 'ae-snap'))),
    },
    listAuditEvents: {
      'a page': (store, s) => audit.listAuditEvents(store.db, s.orgId, { since: undefined, page: PAGE }),
      since: (store, s) => audit.listAuditEvents(store.db, s.orgId, { since: T, page: PAGE }),
      'filtered by type, action and who': (store, s) =>
        audit.listAuditEvents(store.db, s.orgId, {
          since: undefined,
          page: PAGE,
          filters: { type: 'varset', action: 'update', who: 'owners' },
        }),
    },
  },
  'src/auth/store.ts': {
    deleteOwnedToken: {
      "a team's token": (store, s) =>
        auth.deleteOwnedToken(store.db, { kind: 'team', organizationId: s.orgId, teamId: NONE }),
    },
    deleteSiteAdminTokens: {
      'all but one': (store) => inTransaction(store, (trx) => auth.deleteSiteAdminTokens(trx, NONE, NONE)),
    },
    deleteTokenById: { 'by id': (store) => auth.deleteTokenById(store.db, NONE) },
    findCredentialsVersion: { current: (store) => auth.findCredentialsVersion(store.db) },
    findOwnedToken: {
      "a team's": (store, s) =>
        auth.findOwnedToken(store.db, { kind: 'team', organizationId: s.orgId, teamId: s.teamId }),
      "an organization's": (store, s) =>
        auth.findOwnedToken(store.db, { kind: 'organization', organizationId: s.orgId }),
    },
    findTeamGrants: { "a team's": (store, s) => auth.findTeamGrants(store.db, s.teamId) },
    findTeamTokenById: { 'by id': (store) => auth.findTeamTokenById(store.db, NONE) },
    findTokenByHash: { 'by hash': (store) => auth.findTokenByHash(store.db, NONE) },
    findTokenById: { 'by id': (store) => auth.findTokenById(store.db, NONE) },
    insertToken: {
      'a token': (store, s) =>
        inTransaction(store, (trx) =>
          auth.insertToken(
            trx,
            {
              id: 'at-snap',
              kind: 'organization',
              organization_id: s.orgId,
              team_id: null,
              description: '',
              created_at: T,
              expired_at: null,
              legacy: true,
              created_by_kind: null,
              created_by_id: null,
              last_used_at: null,
            },
            'hash-snap',
          ),
        ),
    },
    listTokens: {
      'every token': (store) => auth.listTokens(store.db, undefined),
      "an organization's": (store, s) => auth.listTokens(store.db, s.orgId),
    },
    listTeamTokens: {
      'every team': (store, s) =>
        auth.listTeamTokens(
          store.db,
          s.orgId,
          { teamName: undefined, teamId: undefined, sort: 'created-at', descending: false },
          PAGE,
        ),
      'by team name, descending': (store, s) =>
        auth.listTeamTokens(
          store.db,
          s.orgId,
          { teamName: 'dev', teamId: undefined, sort: 'team-name', descending: true },
          PAGE,
        ),
      'one team': (store, s) =>
        auth.listTeamTokens(
          store.db,
          s.orgId,
          { teamName: undefined, teamId: s.teamId, sort: 'last-used-at', descending: false },
          PAGE,
        ),
      'by creator': (store, s) =>
        auth.listTeamTokens(
          store.db,
          s.orgId,
          { teamName: undefined, teamId: undefined, sort: 'created-by', descending: false },
          PAGE,
        ),
      'by expiry': (store, s) =>
        auth.listTeamTokens(
          store.db,
          s.orgId,
          { teamName: undefined, teamId: undefined, sort: 'expired-at', descending: false },
          PAGE,
        ),
    },
    siteAdminTokenExists: { any: (store) => auth.siteAdminTokenExists(store.db) },
    teamTokenDescriptionTaken: { taken: (store, s) => auth.teamTokenDescriptionTaken(store.db, s.teamId, 'ci') },
    tokenHashExists: { 'by hash': (store) => auth.tokenHashExists(store.db, NONE) },
    touchToken: { 'last used': (store) => auth.touchToken(store.db, NONE, T) },
  },
  'src/comments/store.ts': {
    findComment: { 'by id': (store, s) => comments.findComment(store.db, s.commentId) },
    insertComment: {
      'a comment': (store, s) =>
        comments.insertComment(store.db, {
          id: 'cm-snap',
          run_id: s.runId,
          run_event_id: s.runEventId,
          body: 'b',
          created_at: T,
        }),
    },
    listComments: { 'a page': (store, s) => comments.listComments(store.db, s.runId, PAGE) },
  },
  'src/configuration-versions/store.ts': {
    findArchive: { 'by id': (store, s) => cvs.findArchive(store.db, s.cvId) },
    findConfigurationVersion: { 'by id': (store, s) => cvs.findConfigurationVersion(store.db, s.cvId) },
    findConfigurationVersions: { 'two ids': (store, s) => cvs.findConfigurationVersions(store.db, [s.cvId, NONE]) },
    findOpenUpload: { 'by secret': (store) => cvs.findOpenUpload(store.db, NONE) },
    findRunnableConfigurationVersion: {
      'the latest uploaded': (store, s) =>
        inTransaction(store, (trx) => cvs.findRunnableConfigurationVersion(trx, s.workspaceId, undefined)),
      'one named': (store, s) =>
        inTransaction(store, (trx) => cvs.findRunnableConfigurationVersion(trx, s.workspaceId, s.cvId)),
    },
    hasUnfinishedRun: { 'by id': (store, s) => cvs.hasUnfinishedRun(store.db, s.cvId) },
    insertConfigurationVersion: {
      'a pending one': (store, s) =>
        cvs.insertConfigurationVersion(
          store.db,
          {
            id: 'cv-snap',
            workspace_id: s.workspaceId,
            status: 'pending',
            auto_queue_runs: false,
            speculative: false,
            provisional: false,
            error: null,
            error_message: null,
            created_at: T,
            uploaded_at: null,
            errored_at: null,
            archived_at: null,
          },
          { secretHash: 'hash-snap', expiresAt: LATER },
        ),
    },
    listConfigurationVersions: { 'a page': (store, s) => cvs.listConfigurationVersions(store.db, s.workspaceId, PAGE) },
    lockConfigurationVersion: {
      'by id': (store, s) => inTransaction(store, (trx) => cvs.lockConfigurationVersion(trx, s.cvId)),
    },
    markArchived: { 'by id': (store) => inTransaction(store, (trx) => cvs.markArchived(trx, NONE)) },
    storeUploadedArchive: {
      'an upload': (store) =>
        inTransaction(store, (trx) =>
          cvs.storeUploadedArchive(
            trx,
            { configurationVersionId: 'cv-snap', secretHash: 'hash-snap' },
            Buffer.from('archive'),
          ),
        ),
    },
    markErrored: {
      'an upload': (store) =>
        cvs.markErrored(store.db, { configurationVersionId: 'cv-snap', secretHash: 'hash-snap' }, 'e', 'message'),
    },
  },
  'src/effective/reach-store.ts': {
    findAssignmentsOfWorkspacesReachedBy: {
      'a set': (store, s) => reach.findAssignmentsOfWorkspacesReachedBy(store.db, s.varsetId),
    },
    findVariablesOfSetsReachingWorkspacesReachedBy: {
      'a set': (store, s) => reach.findVariablesOfSetsReachingWorkspacesReachedBy(store.db, s.orgId, s.varsetId),
    },
    findVariablesOfWorkspacesReachedBy: {
      'a set': (store, s) => reach.findVariablesOfWorkspacesReachedBy(store.db, s.varsetId),
    },
    findWorkspacesReachedBy: { 'a set': (store, s) => reach.findWorkspacesReachedBy(store.db, s.varsetId) },
  },
  'src/notifications/queue-store.ts': {
    anyDue: { now: (store) => queue.anyDue(store, T) },
    claimDue: {
      'nothing due': (store) => queue.claimDue(store, 'owner', T, T, 10),
      'a due delivery': (store) => queue.claimDue(store, 'owner', LATER, LATER, 10),
    },
    completeDelivery: { 'by id': (store) => queue.completeDelivery(store.db, 0, 'owner') },
    failDelivery: {
      'to retry': (store) => queue.failDelivery(store.db, 0, 'owner', 2, T),
      'given up': (store) => queue.failDelivery(store.db, 0, 'owner', 9, null),
    },
    releaseDelivery: { 'by id': (store) => queue.releaseDelivery(store.db, 0, 'owner') },
  },
  'src/notifications/store.ts': {
    countConfigurations: { 'an organization': (store, s) => notifications.countConfigurations(store.db, s.orgId) },
    deleteConfiguration: { 'by id': (store) => notifications.deleteConfiguration(store.db, NONE) },
    dropQueuedDeliveries: {
      'a configuration': (store, s) => notifications.dropQueuedDeliveries(store.db, s.notificationId),
    },
    findConfiguration: { 'by id': (store, s) => notifications.findConfiguration(store.db, s.notificationId) },
    findResponses: {
      'two configurations': (store, s) => notifications.findResponses(store.db, [s.notificationId, NONE]),
    },
    insertConfiguration: {
      'a configuration': (store, s) =>
        notifications.insertConfiguration(store.db, {
          id: 'nc-snap-2',
          organizationId: s.orgId,
          organizationName: s.orgName,
          name: 'hook2',
          destinationType: 'slack',
          url: 'https://hooks.example/y',
          sealedToken: 'sealed',
          enabled: false,
          triggers: [],
          createdAt: T,
          updatedAt: T,
        }),
    },
    insertResponse: {
      'a response': (store, s) =>
        notifications.insertResponse(store.db, s.notificationId, {
          url: 'https://hooks.example/x',
          code: 200,
          body: '',
          headers: {},
          error: null,
          successful: true,
          sentAt: T,
          varsetId: null,
          versionNumber: null,
          attempt: null,
        }),
    },
    organizationExists: { 'by id': (store, s) => notifications.organizationExists(store.db, s.orgId) },
    pageOfConfigurations: { 'a page': (store, s) => notifications.pageOfConfigurations(store.db, s.orgId, PAGE) },
    updateConfiguration: {
      'a configuration': async (store, s) =>
        notifications.updateConfiguration(
          store.db,
          (await notifications.findConfiguration(store.db, s.notificationId))!,
        ),
    },
  },
  'src/organizations/store.ts': {
    deleteOrganization: {
      'by id': (store) => inTransaction(store, (trx) => organizations.deleteOrganization(trx, NONE)),
    },
    findOrganizationByName: { 'by name': (store, s) => organizations.findOrganizationByName(store.db, s.orgName) },
    findOrganizationName: { 'by id': (store, s) => organizations.findOrganizationName(store.db, s.orgId) },
    findOrganizationRecord: { 'by name': (store, s) => organizations.findOrganizationRecord(store.db, s.orgName) },
    findSettings: { 'by id': (store, s) => organizations.findSettings(store.db, s.orgId) },
    insertOrganization: {
      'an organization': async (store, s) => {
        const record = (await organizations.findOrganizationRecord(store.db, s.orgName))!;
        return inTransaction(store, (trx) =>
          organizations.insertOrganization(trx, {
            ...record,
            id: 'org-snap',
            name: 'snap-2',
            email: 'b@snap.test',
            default_project_id: 'prj-snap-default',
          }),
        );
      },
    },
    listOrganizations: {
      every: (store) => organizations.listOrganizations(store.db, {}, PAGE),
      'search, name, email, only and except': (store, s) =>
        organizations.listOrganizations(
          store.db,
          { search: 'sn', name: s.orgName, email: 'ops@snap.test', only: [s.orgId], except: [NONE] },
          PAGE,
        ),
    },
    updateOrganization: {
      'a record': async (store, s) => {
        const record = (await organizations.findOrganizationRecord(store.db, s.orgName))!;
        return inTransaction(store, (trx) => organizations.updateOrganization(trx, record));
      },
    },
  },
  'src/projects/store.ts': {
    deleteProject: { 'by id': (store) => inTransaction(store, (trx) => projects.deleteProject(trx, NONE)) },
    findProjectWithOrganization: { 'by id': (store, s) => projects.findProjectWithOrganization(store.db, s.projectId) },
    findProjects: {
      'of an organization': (store, s) => projects.findProjects(store.db, s.orgId, [s.projectId, s.defaultProjectId]),
    },
    findProjectsById: { 'two ids': (store, s) => projects.findProjectsById(store.db, [s.projectId, NONE]) },
    followExecutionMode: {
      "an organization's new mode": (store) =>
        inTransaction(store, (trx) => projects.followExecutionMode(trx, NONE, 'local')),
    },
    hasWorkspaces: { 'by id': (store, s) => projects.hasWorkspaces(store.db, s.projectId) },
    insertProject: {
      'a project': async (store, s) => {
        const project = await projectOf(store, s);
        return inTransaction(store, (trx) =>
          projects.insertProject(trx, { ...project, id: 'prj-snap', name: 'p-snap' }),
        );
      },
    },
    listProjects: {
      every: (store, s) => projects.listProjects(store.db, s.orgId, { visible: 'all', order: 'name' }, PAGE),
      'search, names, tagged, visible and within': (store, s) =>
        projects.listProjects(
          store.db,
          s.orgId,
          {
            search: 'p',
            names: ['p1'],
            tagged: [
              { key: 'k', value: '' },
              { key: 'a', value: 'b' },
            ],
            visible: { projectIds: [s.projectId] },
            within: [[s.projectId]],
            order: '-name',
          },
          PAGE,
        ),
      newest: (store, s) => projects.listProjects(store.db, s.orgId, { visible: 'all', order: 'newest' }, PAGE),
    },
    projectNameTaken: { 'a name': (store, s) => projects.projectNameTaken(store.db, s.orgId, 'p1') },
    updateProject: {
      'a project': async (store, s) => {
        const row = await projectOf(store, s);
        return inTransaction(store, (trx) => projects.updateProject(trx, row));
      },
    },
  },
  'src/run-events/store.ts': {
    findRunEvent: { 'by id': (store, s) => runEvents.findRunEvent(store.db, s.runEventId) },
    listRunEvents: { 'a page': (store, s) => runEvents.listRunEvents(store.db, s.runId, PAGE) },
  },
  'src/runs/store.ts': {
    findRun: { 'by id': (store, s) => runs.findRun(store.db, s.runId) },
    findRunEventIds: { 'two runs': (store, s) => runs.findRunEventIds(store.db, [s.runId, NONE]) },
    insertRun: {
      'a run': (store, s) =>
        runs.insertRun(store.db, {
          id: 'run-snap',
          workspace_id: s.workspaceId,
          configuration_version_id: s.cvId,
          status: 'pending',
          message: 'm',
          is_destroy: false,
          plan_only: false,
          variables: [],
          created_at: T,
          created_by_token_id: null,
          planning_at: null,
          finished_at: null,
        }),
    },
    insertRunEvent: {
      'an event': (store) =>
        runs.insertRunEvent(store.db, {
          id: 'ev-snap',
          run_id: 'run-snap',
          action: 'created',
          description: 'd',
          actor_kind: 'site-admin',
          actor_id: null,
          created_at: T,
        }),
    },
    listRuns: {
      'a page': (store, s) => runs.listRuns(store.db, s.workspaceId, {}, PAGE),
      'every filter': (store, s) =>
        runs.listRuns(
          store.db,
          s.workspaceId,
          {
            statuses: ['pending', 'planned'],
            operations: ['plan_only', 'destroy'],
            sources: ['tfe-api'],
            statusGroup: 'non_final',
            search: 'run',
          },
          PAGE,
        ),
    },
    updateRunStatus: {
      'to planning': (store) => runs.updateRunStatus(store.db, 'run-snap', ['pending'], 'planning', { planning_at: T }),
    },
  },
  'src/effective/store.ts': {
    findRunEffectiveVariables: { 'a run': (store, s) => effective.findRunEffectiveVariables(store.db, s.runId) },
    findRunWorkspace: { 'a run': (store, s) => effective.findRunWorkspace(store.db, s.runId) },
    insertRunEffectiveVariables: {
      'a value and the one it overrides': (store, s) =>
        effective.insertRunEffectiveVariables(store.db, 'run-snap', [
          {
            key: 'region',
            category: 'terraform',
            winner: {
              variableId: s.workspaceVariableId,
              versionId: 'v1',
              value: 'a',
              description: '',
              hcl: false,
              sensitive: false,
              source: { kind: 'workspace' },
              level: 12,
            },
            overridden: [
              {
                variableId: s.varsetVariableId,
                versionId: 'v2',
                value: 'b',
                description: '',
                hcl: false,
                sensitive: false,
                source: {
                  kind: 'varset',
                  id: s.varsetId,
                  name: 'set1',
                  scope: 'workspace',
                  owner: 'organization',
                  priority: false,
                  version: 1,
                },
                level: 8,
              },
            ],
          },
        ]),
    },
  },
  'src/secrets/store.ts': {
    findSetting: { 'by name': (store) => secrets.findSetting(store.db, NONE) },
    insertSettingOnce: {
      'a setting': (store) => inTransaction(store, (trx) => secrets.insertSettingOnce(trx, 'snap', 'v')),
    },
    deleteSetting: { 'a setting': (store) => inTransaction(store, (trx) => secrets.deleteSetting(trx, 'snap')) },
    replaceSealedValue: {
      'a column': (store) =>
        inTransaction(store, (trx) =>
          secrets.replaceSealedValue(
            trx,
            { table: 'varset_variables', id: 'id', column: 'value', sealedWhen: 'sensitive' },
            NONE,
            'v2:expected',
            'v',
          ),
        ),
    },
    sealedValues: {
      'a flagged column': (store) =>
        inTransaction(store, (trx) =>
          secrets.sealedValues(
            trx,
            { table: 'varset_variables', id: 'id', column: 'value', sealedWhen: 'sensitive' },
            '',
            100,
          ),
        ),
      'a map column': (store) =>
        inTransaction(store, (trx) =>
          secrets.sealedValues(trx, { table: 'varset_versions', id: 'id', column: 'sealed', map: true }, '', 100),
        ),
    },
    settingsNamed: { 'by prefix': (store) => secrets.settingsNamed(store.db, 'encryption-keys/') },
    updateSetting: { 'a setting': (store) => inTransaction(store, (trx) => secrets.updateSetting(trx, 'snap', 'w')) },
  },
  'src/tag-bindings/store.ts': {
    bindingsOf: {
      "a workspace's": (store, s) =>
        tagBindings.bindingsOf(store.db, { kind: 'workspace', id: s.workspaceId, organizationId: s.orgId }),
    },
    bindingsOfMany: { "projects'": (store, s) => tagBindings.bindingsOfMany(store.db, 'project', [s.projectId, NONE]) },
    deleteBindings: {
      every: (store, s) =>
        inTransaction(store, (trx) =>
          tagBindings.deleteBindings(trx, { kind: 'project', id: s.projectId, organizationId: s.orgId }),
        ),
      'some keys': (store, s) =>
        inTransaction(store, (trx) =>
          tagBindings.deleteBindings(trx, { kind: 'workspace', id: s.workspaceId, organizationId: s.orgId }, ['k']),
        ),
    },
    insertBindings: {
      'two bindings': (store, s) =>
        inTransaction(store, (trx) =>
          tagBindings.insertBindings(trx, { kind: 'workspace', id: s.workspaceId, organizationId: s.orgId }, [
            { id: 'tb-1', key: 'k', value: 'v', position: 0, created_at: T },
            { id: 'tb-2', key: 'l', value: '', position: 1, created_at: T },
          ]),
        ),
    },
    updateValues: {
      'two values': (store) =>
        inTransaction(store, (trx) =>
          tagBindings.updateValues(trx, [
            { id: 'tb-1', value: 'w' },
            { id: 'tb-2', value: 'x' },
          ]),
        ),
    },
  },
  'src/team-access/store.ts': {
    deleteTeamProject: { 'by id': (store) => inTransaction(store, (trx) => teamAccess.deleteTeamProject(trx, NONE)) },
    deleteTeamWorkspace: {
      'by id': (store) => inTransaction(store, (trx) => teamAccess.deleteTeamWorkspace(trx, NONE)),
    },
    findTeamProject: { 'by id': (store, s) => teamAccess.findTeamProject(store.db, s.teamProjectId) },
    findTeamWorkspace: { 'by id': (store, s) => teamAccess.findTeamWorkspace(store.db, s.teamWorkspaceId) },
    insertTeamProject: {
      'a grant': async (store, s) => {
        const { grant } = (await teamAccess.findTeamProject(store.db, s.teamProjectId))!;
        return inTransaction(store, (trx) =>
          teamAccess.insertTeamProject(trx, { ...grant, id: 'tp-snap', project_id: s.defaultProjectId }),
        );
      },
    },
    insertTeamWorkspace: {
      'a grant': async (store, s) => {
        const { grant } = (await teamAccess.findTeamWorkspace(store.db, s.teamWorkspaceId))!;
        return inTransaction(store, (trx) =>
          teamAccess.insertTeamWorkspace(trx, { ...grant, id: 'tw-snap', workspace_id: s.otherWorkspaceId }),
        );
      },
    },
    listTeamProjects: {
      every: (store) => teamAccess.listTeamProjects(store.db, { scope: 'all' }, PAGE),
      'a team and project, within a scope': (store, s) =>
        teamAccess.listTeamProjects(
          store.db,
          { teamId: s.teamId, resourceId: s.projectId, scope: { teamId: s.teamId } },
          PAGE,
        ),
    },
    listTeamWorkspaces: {
      every: (store) => teamAccess.listTeamWorkspaces(store.db, { scope: 'all' }, PAGE),
      'a team and workspace, within a scope': (store, s) =>
        teamAccess.listTeamWorkspaces(
          store.db,
          { teamId: s.teamId, resourceId: s.workspaceId, scope: { teamId: s.teamId } },
          PAGE,
        ),
    },
    teamHasProjectGrant: { 'a grant': (store, s) => teamAccess.teamHasProjectGrant(store.db, s.teamId, s.projectId) },
    teamHasWorkspaceGrant: {
      'a grant': (store, s) => teamAccess.teamHasWorkspaceGrant(store.db, s.teamId, s.workspaceId),
    },
    updateTeamProject: {
      'a grant': async (store, s) => {
        const row = (await teamAccess.findTeamProject(store.db, s.teamProjectId))!.grant;
        return inTransaction(store, (trx) => teamAccess.updateTeamProject(trx, row));
      },
    },
    updateTeamWorkspace: {
      'a grant': async (store, s) => {
        const row = (await teamAccess.findTeamWorkspace(store.db, s.teamWorkspaceId))!.grant;
        return inTransaction(store, (trx) => teamAccess.updateTeamWorkspace(trx, row));
      },
    },
  },
  'src/teams/store.ts': {
    deleteTeam: { 'by id': (store) => inTransaction(store, (trx) => teams.deleteTeam(trx, NONE)) },
    findTeamWithOrganization: { 'by id': (store, s) => teams.findTeamWithOrganization(store.db, s.teamId) },
    insertTeam: {
      'a team': async (store, s) => {
        const row = { ...(await teamOf(store, s)), id: 'team-snap', name: 'snap-team' };
        return inTransaction(store, (trx) => teams.insertTeam(trx, row));
      },
    },
    listTeams: {
      every: (store, s) => teams.listTeams(store.db, s.orgId, { scope: 'all' }, PAGE),
      'search, names and a scope': (store, s) =>
        teams.listTeams(
          store.db,
          s.orgId,
          { search: 'dev', names: ['devs', 'owners'], scope: { ownTeamId: s.teamId } },
          PAGE,
        ),
      'no names': (store, s) => teams.listTeams(store.db, s.orgId, { names: [], scope: 'all' }, PAGE),
    },
    teamNameTaken: { 'a name': (store, s) => teams.teamNameTaken(store.db, s.orgId, 'devs') },
    updateTeam: {
      'a team': async (store, s) => {
        const row = await teamOf(store, s);
        return inTransaction(store, (trx) => teams.updateTeam(trx, row));
      },
    },
  },
  'src/variables/store.ts': {
    deleteVariable: {
      "a set's": (store, s) => variables.deleteVariable(store.db, varsetOwner(s), NONE),
      "a workspace's": (store, s) => variables.deleteVariable(store.db, workspaceOwner(s), NONE),
    },
    deleteVariables: {
      "a set's": (store, s) => variables.deleteVariables(store.db, varsetOwner(s), [NONE, 'none-2']),
      "a workspace's": (store, s) => variables.deleteVariables(store.db, workspaceOwner(s), [NONE]),
    },
    findVariable: {
      "a set's": (store, s) => variables.findVariable(store.db, varsetOwner(s), s.varsetVariableId),
      "a workspace's": (store, s) => variables.findVariable(store.db, workspaceOwner(s), s.workspaceVariableId),
    },
    findVariablesByKey: {
      "a set's": (store, s) => variables.findVariablesByKey(store.db, varsetOwner(s), ['region', 'zone']),
      "a workspace's": (store, s) => variables.findVariablesByKey(store.db, workspaceOwner(s), ['size']),
    },
    insertVariables: {
      "a set's": (store, s) =>
        variables.insertVariables(store.db, varsetOwner(s), [newVariable(varsetOwner(s), 'var-snap-1', 'k1')]),
      "a global set's": (store, s) =>
        variables.insertVariables(
          store.db,
          { kind: 'varset', id: s.globalVarsetId },
          [newVariable({ kind: 'varset', id: s.globalVarsetId }, 'var-snap-2', 'k2')],
          s.orgId,
        ),
      "a workspace's": (store, s) =>
        variables.insertVariables(store.db, workspaceOwner(s), [
          newVariable(workspaceOwner(s), 'var-snap-3', 'k3'),
          newVariable(workspaceOwner(s), 'var-snap-4', 'k4'),
        ]),
    },
    listVariableKeys: {
      "a set's": (store, s) => variables.listVariableKeys(store.db, varsetOwner(s)),
      "a workspace's": (store, s) => variables.listVariableKeys(store.db, workspaceOwner(s)),
    },
    listVariables: {
      "a set's": (store, s) => variables.listVariables(store.db, varsetOwner(s)),
      "a workspace's": (store, s) => variables.listVariables(store.db, workspaceOwner(s)),
    },
    pageOfVariables: {
      "a set's": (store, s) => variables.pageOfVariables(store.db, varsetOwner(s), PAGE),
      "a workspace's": (store, s) => variables.pageOfVariables(store.db, workspaceOwner(s), PAGE),
    },
    updateVariable: {
      "a set's": async (store, s) =>
        variables.updateVariable(
          store.db,
          (await variables.findVariable(store.db, varsetOwner(s), s.varsetVariableId))!,
        ),
      "a workspace's": async (store, s) =>
        variables.updateVariable(
          store.db,
          (await variables.findVariable(store.db, workspaceOwner(s), s.workspaceVariableId))!,
        ),
    },
    variablesOfSets: { 'two sets': (store, s) => variables.variablesOfSets(store.db, [s.varsetId, s.globalVarsetId]) },
  },
  'src/varsets/assignment-store.ts': {
    addAssignments: {
      workspaces: (store, s) => assignments.addAssignments(store.db, 'workspaces', s.varsetId, [s.otherWorkspaceId]),
      projects: (store, s) => assignments.addAssignments(store.db, 'projects', s.varsetId, [s.defaultProjectId]),
    },
    findAssignments: { 'a set': (store, s) => assignments.findAssignments(store.db, s.varsetId) },
    findProjectsById: { 'two ids': (store, s) => assignments.findProjectsById(store.db, [s.projectId, NONE]) },
    findWorkspacesById: { 'two ids': (store, s) => assignments.findWorkspacesById(store.db, [s.workspaceId, NONE]) },
    projectsOfSets: { 'two sets': (store, s) => assignments.projectsOfSets(store.db, [s.varsetId, s.globalVarsetId]) },
    removeAssignments: {
      'some workspaces': (store, s) =>
        assignments.removeAssignments(store.db, 'workspaces', s.varsetId, [s.otherWorkspaceId]),
      'every project': (store, s) => assignments.removeAssignments(store.db, 'projects', s.globalVarsetId, 'all'),
    },
    workspacesOfSets: {
      'two sets': (store, s) => assignments.workspacesOfSets(store.db, [s.varsetId, s.globalVarsetId]),
    },
  },
  'src/varsets/arranged-list-store.ts': {
    listArrangedVarsets: {
      'global and priority, by variables descending': (store, s) =>
        arrangedList.listArrangedVarsets(
          store.db,
          { kind: 'organization', organizationId: s.orgId, readable: 'all' },
          undefined,
          { filters: { global: true, priority: true }, sort: { key: 'var-count', descending: true } },
          PAGE,
          false,
        ),
      'readable, searched, owned by a project, by scope': (store, s) =>
        arrangedList.listArrangedVarsets(
          store.db,
          {
            kind: 'organization',
            organizationId: s.orgId,
            readable: {
              global: true,
              workspaceIds: [s.workspaceId],
              workspaceProjectIds: [],
              projectIds: [],
              ownerProjectIds: [],
            },
          },
          'set',
          { filters: { projectOwned: true }, sort: { key: 'scope', descending: false } },
          PAGE,
          false,
        ),
      'by variable key': (store, s) =>
        arrangedList.listArrangedVarsets(
          store.db,
          { kind: 'organization', organizationId: s.orgId, readable: 'all' },
          undefined,
          { filters: { varKey: 'DB_PASSWORD' }, sort: undefined },
          PAGE,
          false,
        ),
    },
  },
  'src/varsets/list-store.ts': {
    readableBy: {
      'sets of a workspace and global ones': (store, s) =>
        store.db
          .selectFrom('varsets')
          .select('varsets.id')
          .where((eb) =>
            varsetList.readableBy(eb, {
              global: true,
              workspaceIds: [s.workspaceId],
              workspaceProjectIds: [],
              projectIds: [],
              ownerProjectIds: [],
            }),
          )
          .execute(),
    },
    findVarsetsReachingWorkspace: {
      'a workspace': (store, s) => varsetList.findVarsetsReachingWorkspace(store.db, place(s)),
    },
    keptCount: {
      "an organization's global sets": (store, s) =>
        store.db.selectNoFrom((eb) => varsetList.keptCount(eb, s.orgId, 'global_varset_count').as('n')).execute(),
    },
    listVarsets: {
      'an organization, every set': (store, s) =>
        varsetList.listVarsets(
          store.db,
          { kind: 'organization', organizationId: s.orgId, readable: 'all' },
          undefined,
          PAGE,
          false,
        ),
      'an organization, readable sets, searched, with variables': (store, s) =>
        varsetList.listVarsets(
          store.db,
          {
            kind: 'organization',
            organizationId: s.orgId,
            readable: {
              global: true,
              workspaceIds: [s.workspaceId],
              workspaceProjectIds: [s.projectId],
              projectIds: [s.projectId],
              ownerProjectIds: [s.projectId],
            },
          },
          'set',
          PAGE,
          true,
        ),
      'a project': (store, s) =>
        varsetList.listVarsets(
          store.db,
          { kind: 'project', organizationId: s.orgId, projectId: s.projectId },
          undefined,
          PAGE,
          false,
        ),
      'a workspace, searched': (store, s) =>
        varsetList.listVarsets(
          store.db,
          { kind: 'workspace', organizationId: s.orgId, projectId: s.projectId, workspaceId: s.workspaceId },
          'g',
          PAGE,
          false,
        ),
    },
  },
  'src/varsets/state-store.ts': {
    findVarsetAndNewestNumber: { 'a set': (store, s) => varsetStates.findVarsetAndNewestNumber(store.db, s.varsetId) },
    findVarsetState: { 'a set': (store, s) => varsetStates.findVarsetState(store.db, s.varsetId) },
    findVarsetStatesOwnedBy: {
      "a project's": (store, s) => varsetStates.findVarsetStatesOwnedBy(store.db, s.projectId),
    },
    findVarsetsAssignedTo: {
      "a workspace's": (store, s) => varsetStates.findVarsetsAssignedTo(store.db, 'workspaces', s.workspaceId),
      "a project's": (store, s) => varsetStates.findVarsetsAssignedTo(store.db, 'projects', s.projectId),
    },
  },
  'src/varsets/store.ts': {
    deleteVarset: { 'by id': (store) => varsets.deleteVarset(store.db, NONE) },
    findGlobalVariablesByKey: {
      'two keys': (store, s) => varsets.findGlobalVariablesByKey(store.db, s.orgId, s.varsetId, ['zone', 'region']),
    },
    findVarsetAtVersion: {
      'with its variables': (store, s) => varsets.findVarsetAtVersion(store.db, s.varsetId, true),
      'unless at a version': (store, s) => varsets.findVarsetAtVersion(store.db, s.varsetId, false, 1),
    },
    findVarsetOrganizationId: { 'by id': (store, s) => varsets.findVarsetOrganizationId(store.db, s.varsetId) },
    insertVarset: {
      'a set': (store, s) =>
        varsets.insertVarset(store.db, {
          id: 'vs-snap',
          organization_id: s.orgId,
          organization_name: s.orgName,
          project_id: null,
          name: 'snap-set',
          description: '',
          global: false,
          priority: false,
          created_at: T,
          updated_at: T,
        }),
    },
    isVarsetNameTaken: {
      'a name': (store, s) => varsets.isVarsetNameTaken(store.db, s.orgId, 'set1', s.globalVarsetId),
    },
    selectVarsets: {
      'a query': (store, s) =>
        varsets.selectVarsets(store.db.selectFrom('varsets')).where('varsets.id', '=', s.varsetId).execute(),
    },
    setVariablesGlobal: {
      global: (store, s) =>
        varsets.setVariablesGlobal(store.db, { id: s.globalVarsetId, organization_id: s.orgId, global: true }),
      'no longer global': (store) =>
        varsets.setVariablesGlobal(store.db, { id: 'vs-snap', organization_id: 'org-none', global: false }),
    },
    toVarsetRead: {
      'a row (builds no statement)': async (_store, s) =>
        varsets.toVarsetRead(
          {
            id: s.varsetId,
            organization_id: s.orgId,
            organization_name: s.orgName,
            project_id: null,
            name: 'set1',
            description: '',
            global: false,
            priority: false,
            created_at: T,
            updated_at: T,
            workspace_ids: '[]',
            project_ids: '[]',
            variables: '[]',
          },
          false,
        ),
    },
    touchVarsetAt: { 'by id': (store, s) => inTransaction(store, (trx) => varsets.touchVarsetAt(trx, s.varsetId, T)) },
    updateVarset: {
      'every attribute': (store) =>
        varsets.updateVarset(store.db, 'vs-snap', {
          name: 'snap-set-2',
          description: 'd',
          global: false,
          priority: true,
          updated_at: T,
        }),
      'the name': (store) => varsets.updateVarset(store.db, 'vs-snap', { name: 'snap-set-3' }),
    },
    withRelations: {
      'ids of variables': (store, s) =>
        varsets
          .withRelations(store.db, varsets.selectVarsets(store.db.selectFrom('varsets')), false)
          .where('varsets.id', '=', s.varsetId)
          .execute(),
      'rows of variables unless at a version': (store, s) =>
        varsets
          .withRelations(store.db, varsets.selectVarsets(store.db.selectFrom('varsets')), true, 1)
          .innerJoin('organization_versions', 'organization_versions.organization_id', 'varsets.organization_id')
          .where('varsets.id', '=', s.varsetId)
          .execute(),
    },
  },
  'src/varsets/versions/store.ts': {
    findLastVersionNumber: { 'a set': (store, s) => versions.findLastVersionNumber(store.db, s.varsetId) },
    findNewestVersion: { 'a set': (store, s) => versions.findNewestVersion(store.db, s.varsetId) },
    findVersion: { 'by id': (store, s) => versions.findVersion(store.db, s.versionId) },
    findVersionsAfter: { 'a set': (store, s) => versions.findVersionsAfter(store.db, s.varsetId, 0) },
    insertVersion: {
      'a version': async (store, s) => {
        const version = (await versions.findVersion(store.db, s.versionId))!;
        const { organizationName: _name, ...recorded } = version;
        return inTransaction(store, (trx) =>
          versions.insertVersion(trx, { ...recorded, id: 'vv-snap', number: 99, sealed: {} }),
        );
      },
    },
    newestVersionNumber: {
      "a set's, as a column": (store, s) =>
        store.db
          .selectFrom('varsets')
          .select((eb) => versions.newestVersionNumber(eb).as('number'))
          .where('varsets.id', '=', s.varsetId)
          .execute(),
    },
    pageOfVersions: { 'a page': (store, s) => versions.pageOfVersions(store.db, s.varsetId, PAGE) },
    pageOfDeletedSets: {
      "an organization's": (store, s) => versions.pageOfDeletedSets(store.db, s.orgId, PAGE),
    },
  },
  'src/workspaces/consumer-store.ts': {
    addConsumers: {
      'two workspaces': (store, s) =>
        inTransaction(store, (trx) => consumers.addConsumers(trx, s.workspaceId, [s.otherWorkspaceId, s.workspaceId])),
    },
    consumerIds: { 'a workspace': (store, s) => consumers.consumerIds(store.db, s.workspaceId) },
    removeConsumers: {
      some: (store, s) =>
        inTransaction(store, (trx) => consumers.removeConsumers(trx, s.workspaceId, [s.otherWorkspaceId])),
      every: (store, s) => inTransaction(store, (trx) => consumers.removeConsumers(trx, s.workspaceId)),
    },
  },
  'src/workspaces/store.ts': {
    defaultProjectId: { 'an organization': (store, s) => workspaces.defaultProjectId(store.db, s.orgId) },
    deleteOrganizationWorkspaces: {
      'an organization': (store) => inTransaction(store, (trx) => workspaces.deleteOrganizationWorkspaces(trx, NONE)),
    },
    deleteUnlockedWorkspace: {
      'by id': (store) => inTransaction(store, (trx) => workspaces.deleteUnlockedWorkspace(trx, NONE)),
    },
    deleteWorkspace: { 'by id': (store) => inTransaction(store, (trx) => workspaces.deleteWorkspace(trx, NONE)) },
    extrasOf: { 'two workspaces': (store, s) => workspaces.extrasOf(store.db, [s.workspaceId, s.otherWorkspaceId]) },
    findWorkspaceWithOrganization: {
      'by id': (store, s) => workspaces.findWorkspaceWithOrganization(store.db, { id: s.workspaceId }),
      'by name': (store, s) =>
        workspaces.findWorkspaceWithOrganization(store.db, { organizationName: s.orgName, name: 'w1' }),
    },
    findWorkspaces: {
      'of an organization': (store, s) => workspaces.findWorkspaces(store.db, s.orgId, [s.workspaceId, NONE]),
    },
    findWorkspacesWithOrganization: {
      'two ids': (store, s) => workspaces.findWorkspacesWithOrganization(store.db, [s.workspaceId, s.otherWorkspaceId]),
    },
    insertWorkspace: {
      'a workspace': async (store, s) => {
        const row = { ...(await workspaceOf(store, s)), id: 'ws-snap', name: 'w-snap' };
        return inTransaction(store, (trx) => workspaces.insertWorkspace(trx, row));
      },
    },
    leaveOtherProjectsSets: {
      'a workspace': async (store, s) => {
        const row = await workspaceOf(store, s);
        return inTransaction(store, (trx) => workspaces.leaveOtherProjectsSets(trx, row));
      },
    },
    listWorkspaces: {
      every: (store, s) => workspaces.listWorkspaces(store.db, s.orgId, { visible: 'all', sort: 'name' }, PAGE),
      'every filter, newest first': (store, s) =>
        workspaces.listWorkspaces(
          store.db,
          s.orgId,
          {
            search: 'w',
            wildcard: 'w%',
            projectId: s.projectId,
            tags: ['blue'],
            excludeTags: ['red'],
            tagged: [
              { key: 'k', value: '' },
              { key: 'a', value: 'b' },
            ],
            visible: { workspaceIds: [s.workspaceId], projectIds: [s.projectId] },
            sort: '-created-at',
          },
          PAGE,
        ),
      'by update': (store, s) =>
        workspaces.listWorkspaces(store.db, s.orgId, { visible: 'all', sort: 'updated-at' }, PAGE),
    },
    organizationHasProject: {
      'a project': (store, s) => workspaces.organizationHasProject(store.db, s.orgId, s.projectId),
    },
    setLock: {
      'lock an unlocked one': (store) =>
        workspaces.setLock(store.db, NONE, null, { type: 'teams', id: 'team-1' }, 'r', T),
      'unlock one held': (store) => workspaces.setLock(store.db, NONE, { type: 'teams', id: 'team-1' }, null, null, T),
      'unlock one locked': (store) => workspaces.setLock(store.db, NONE, 'locked', null, null, T),
    },
    updateWorkspace: {
      'a workspace': async (store, s) => {
        const row = await workspaceOf(store, s);
        return inTransaction(store, (trx) => workspaces.updateWorkspace(trx, row));
      },
    },
    workspaceNameTaken: { 'a name': (store, s) => workspaces.workspaceNameTaken(store.db, s.orgId, 'w1') },
  },
  'src/workspaces/tag-store.ts': {
    insertTags: {
      'two tags': (store, s) =>
        inTransaction(store, (trx) =>
          tags.insertTags(trx, s.orgId, [
            { id: 'tag-snap-1', name: 'green', created_at: T },
            { id: 'tag-snap-2', name: 'red', created_at: T },
          ]),
        ),
    },
    attachTags: {
      'two tags': (store, s) =>
        inTransaction(store, (trx) => tags.attachTags(trx, s.otherWorkspaceId, ['tag-snap-1', 'tag-snap-2'])),
    },
    detachTags: {
      'two tags': (store, s) =>
        inTransaction(store, (trx) => tags.detachTags(trx, s.otherWorkspaceId, ['tag-snap-1', NONE])),
    },
    tagsById: { 'two ids': (store, s) => tags.tagsById(store.db, s.orgId, ['tag-snap-1', NONE]) },
    tagsByName: { 'two names': (store, s) => tags.tagsByName(store.db, s.orgId, ['blue', 'green']) },
    tagsOfOrganization: {
      every: (store, s) => tags.tagsOfOrganization(store.db, s.orgId, undefined, PAGE),
      searched: (store, s) => tags.tagsOfOrganization(store.db, s.orgId, 'bl', PAGE),
    },
    tagsOfWorkspace: {
      every: (store, s) => tags.tagsOfWorkspace(store.db, s.workspaceId, undefined, PAGE),
      searched: (store, s) => tags.tagsOfWorkspace(store.db, s.workspaceId, 'bl', PAGE),
    },
  },
  'src/workload-identity/store.ts': {
    insertKey: {
      'a key': (store) =>
        identityKeys.insertKey(store.db, {
          id: 'wik-snap',
          publicJwk: { kty: 'RSA', n: 'AQAB', e: 'AQAB', kid: 'wik-snap', alg: 'RS256', use: 'sig' },
          sealedPrivateKey: 'sealed',
          createdAt: T,
          signsFrom: T,
          signsUntil: null,
          publishedUntil: null,
        }),
    },
    listLiveKeys: { 'at a time': (store) => identityKeys.listLiveKeys(store.db, T) },
    closeOpenKeys: { 'at a time': (store) => inTransaction(store, (trx) => identityKeys.closeOpenKeys(trx, T, T)) },
  },
} satisfies Record<string, Record<string, Record<string, Case>>>;
