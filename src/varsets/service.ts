import type { Transaction } from 'kysely';
import type { Context } from '../context.js';
import { can, ensure, varsetListScope, type Action, type Target } from '../auth/policy.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/connect.js';
import { withOrganizationLocked } from '../db/transaction.js';
import { searchable } from '../db/search.js';
import type { Database } from '../db/schema.js';
import { newId, now } from '../ids.js';
import { invalidAttribute, notFound, unprocessable } from '../jsonapi/errors.js';
import { ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { findOrganizationByName, type Organization } from '../organizations/store.js';
import { getOrganization } from '../organizations/service.js';
import type { Sealer } from '../secrets/sealer.js';
import { storedValue } from '../secrets/variables.js';
import { getProject } from '../projects/service.js';
import { getWorkspace } from '../workspaces/service.js';
import { applyVariableChanges, newVersionId, readNewVariable, readVariableChanges, type VariableFields } from '../variables/rules.js';
import * as store from './store.js';
import { findAssignments } from './readable.js';
import type { AssignmentRef, RelationRows, VarsetRow, VarsetScope, VarsetVariable, VariableRef } from './store.js';
import type { Project } from '../projects/model.js';
import type { Workspace } from '../workspaces/model.js';

/**
 * The rules of variable sets, their variables and assignments. Every write runs in one
 * transaction that first locks the set's organization, so the checks below see every
 * committed change and no other writer of the organization's sets runs in between.
 */

type Trx = Transaction<Database>;

const NAME_MAX = 128;
const DESCRIPTION_MAX = 512;

export const VARSET_INCLUDES = ['vars', 'workspaces', 'projects'] as const;
export type VarsetInclude = (typeof VARSET_INCLUDES)[number];

/** A set with what every response shows of it. Its relationships carry their rows when asked for. */
export interface VarsetView {
  varset: VarsetRow;
  workspaces: AssignmentRef<Workspace>[];
  projects: AssignmentRef<Project>[];
  variables: VariableRef[];
}

/** Rows for what `include` asks for; create and update responses read them all. */
const rowsFor = (include: Set<VarsetInclude>): RelationRows => ({ variables: include.has('vars'), workspaces: include.has('workspaces'), projects: include.has('projects') });
const ALL_ROWS: RelationRows = { variables: true, workspaces: true, projects: true };

/** What a permission decision on a set needs to know of it; reads may also need where it is assigned (see `ensureReadable`). */
function targetOf(varset: { organization_id: string; project_id: string | null; global: boolean | number }): Target {
  return { organizationId: varset.organization_id, projectId: varset.project_id, varset: { ownerProjectId: varset.project_id, global: Boolean(varset.global) } };
}

/**
 * Reading a set needs Read variables where it applies. Most callers are decided by what the
 * set row says (organization-wide access, a global set, the owning project); the others cost
 * one more query for the set's assignments.
 */
async function ensureReadable(ctx: Context, varset: VarsetRow): Promise<void> {
  const target = targetOf(varset);
  if (can(ctx.subject, 'varset:read', target)) return;
  const assigned = await findAssignments(ctx.store.db, varset.id);
  ensure(ctx.subject, 'varset:read', { ...target, varset: { ...target.varset!, ...assigned } });
}

async function loadViews(_ctx: Context, db: Trx | Context['store']['db'], rows: VarsetRow[], relationRows: RelationRows): Promise<VarsetView[]> {
  const relations = await store.loadRelations(db, rows.map((r) => r.id), relationRows);
  return rows.map((varset) => ({
    varset,
    workspaces: relations.workspaces.get(varset.id) ?? [],
    projects: relations.projects.get(varset.id) ?? [],
    variables: relations.variables.get(varset.id) ?? [],
  }));
}

async function loadView(ctx: Context, db: Trx | Context['store']['db'], varset: VarsetRow, relationRows: RelationRows): Promise<VarsetView> {
  return (await loadViews(ctx, db, [varset], relationRows))[0]!;
}

// ---------------------------------------------------------------------------------------
// Reads

/** What a cached read decided before rendering: the organization's version and what the caller may see. */
interface Versioned<T> {
  version: number | undefined;
  authorized: T;
}

/**
 * A set the subject may read, otherwise the 404 of a missing one, with its organization's
 * version read in the same statement as the set (see `cachedRead`).
 */
async function readableVarset(ctx: Context, id: string): Promise<Versioned<VarsetRow>> {
  const found = await store.findVarsetAtVersion(ctx.store.db, id);
  if (!found) throw notFound();
  await ensureReadable(ctx, found.varset);
  return { version: found.version, authorized: found.varset };
}

/**
 * A read answered through the response cache under `key` (the request's path and query).
 * `authorize` reads the organization's version before, or in the same statement as, anything
 * the response holds, and decides (and may refuse) for this caller before anything is served.
 * A response that `sharedBy` says is not the same for every caller allowed to read it is
 * rendered for each request.
 */
async function cachedRead<T>(
  ctx: Context,
  key: string,
  authorize: () => Promise<Versioned<T>>,
  render: (authorized: T) => Promise<unknown>,
  sharedBy: (authorized: T) => boolean = () => true,
): Promise<string> {
  const { version, authorized } = await authorize();
  return ctx.responses.through(key, sharedBy(authorized) ? version : undefined, () => render(authorized));
}

/** For `cachedRead`: the version of what `of` belongs to, then `authorize`. */
function versionThen<T>(ctx: Context, of: store.VersionOf, authorize: () => Promise<T>): () => Promise<Versioned<T>> {
  return async () => {
    const version = await store.organizationVersion(ctx.store.db, of);
    return { version, authorized: await authorize() };
  };
}

/** The rendered response of a set: `render` turns its view into the document. */
export async function showVarset(ctx: Context, key: string, id: string, include: Set<VarsetInclude>, render: (view: VarsetView) => unknown): Promise<string> {
  return cachedRead(
    ctx,
    key,
    () => readableVarset(ctx, id),
    async (varset) => render(await loadView(ctx, ctx.store.db, varset, rowsFor(include))),
  );
}

export interface VarsetListRequest {
  search: string | undefined;
  page: Page;
  include: Set<VarsetInclude>;
}

/** A page of sets with the number of all matching ones. */
export interface VarsetList {
  views: VarsetView[];
  total: number;
}

async function listVarsets(ctx: Context, scope: VarsetScope, request: VarsetListRequest): Promise<VarsetList> {
  const { rows, total } = await store.listVarsets(ctx.store.db, scope, request.search, request.page);
  return { views: await loadViews(ctx, ctx.store.db, rows, rowsFor(request.include)), total };
}

/**
 * The rendered responses of lists of sets (see `cachedRead`). An organization's list is the
 * same for every caller with organization-wide access; for others it depends on what they may
 * read, and is rendered for each request.
 */
export async function listOrganizationVarsets(ctx: Context, key: string, organizationName: string, request: VarsetListRequest, render: (list: VarsetList, organization: Organization) => unknown) {
  const authorize = async () => {
    const organization = await getOrganization(ctx, organizationName);
    // A member without organization-wide Read variables lists the sets it may read.
    const readable = varsetListScope(ctx.subject, organization.id);
    if (readable === 'none') throw notFound();
    return { organization, readable };
  };
  return cachedRead(
    ctx,
    key,
    versionThen(ctx, { organizationName }, authorize),
    async ({ organization, readable }) => render(await listVarsets(ctx, { kind: 'organization', organizationId: organization.id, readable }, request), organization),
    ({ readable }) => readable === 'all',
  );
}

export async function listProjectVarsets(ctx: Context, key: string, projectId: string, request: VarsetListRequest, render: (list: VarsetList) => unknown) {
  return cachedRead(
    ctx,
    key,
    versionThen(ctx, { projectId }, async () => (await getProject(ctx, projectId, 'project:read-variables')).project),
    async (project) => render(await listVarsets(ctx, { kind: 'project', organizationId: project.organization_id, projectId: project.id }, request)),
  );
}

export async function listWorkspaceVarsets(ctx: Context, key: string, workspaceId: string, request: VarsetListRequest, render: (list: VarsetList) => unknown) {
  return cachedRead(
    ctx,
    key,
    versionThen(ctx, { workspaceId }, async () => (await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables')).workspace),
    async (workspace) =>
      render(await listVarsets(ctx, { kind: 'workspace', organizationId: workspace.organization_id, projectId: workspace.project_id, workspaceId: workspace.id }, request)),
  );
}

// ---------------------------------------------------------------------------------------
// Transactions

/**
 * Runs `work` in one transaction holding the organization's lock. The checks made under the
 * lock make unique violations impossible between varsetd's own writers; should one slip
 * through anyway, the request runs once more: its checks then see the row that won and
 * answer with the precise 422, never a 500.
 */
async function inOrganizationTransaction<T>(ctx: Context, organizationId: string, work: (trx: Trx) => Promise<T>): Promise<T> {
  const attempt = () => withOrganizationLocked(ctx.store, organizationId, work);
  try {
    return await attempt();
  } catch (error) {
    // A workspace or project named in the request was deleted after the checks ran.
    if (isForeignKeyViolation(error)) throw notFound();
    if (!isUniqueViolation(error)) throw error;
  }
  try {
    return await attempt();
  } catch (error) {
    if (isUniqueViolation(error)) throw unprocessable('the request conflicts with a concurrent change; try again');
    throw error;
  }
}

/** A write on an existing set: under the organization's lock, the set as it is now, if the subject may do `action` on it. */
async function changeVarset<T>(ctx: Context, id: string, action: Action, work: (trx: Trx, varset: VarsetRow) => Promise<T>): Promise<T> {
  const organizationId = await store.findVarsetOrganizationId(ctx.store.db, id);
  if (organizationId === undefined) throw notFound();
  return inOrganizationTransaction(ctx, organizationId, async (trx) => {
    const varset = await store.findVarset(trx, id);
    if (!varset) throw notFound();
    ensure(ctx.subject, action, targetOf(varset));
    return work(trx, varset);
  });
}

// ---------------------------------------------------------------------------------------
// Rules

/** A variable about to be in a set, with where in the request it comes from (for error pointers). */
interface Candidate {
  key: string;
  category: string;
  pointer: string;
}

/**
 * The global rule: two global sets of one organization never hold a variable with the same
 * key and category. Every write that could break it (creating or updating a set, adding or
 * updating a variable) calls this with the variables the set will hold that may be new to
 * it; nothing happens unless the set is, or is becoming, global. One query however many
 * global sets there are. Called under the organization lock, so its answer stays true until commit.
 */
async function assertNoGlobalConflict(trx: Trx, varset: { id: string; organization_id: string; global: boolean }, candidates: Candidate[]): Promise<void> {
  if (!varset.global || !candidates.length) return;
  const others = await store.findGlobalVariablesByKey(trx, varset.organization_id, varset.id, [...new Set(candidates.map((c) => c.key))]);
  for (const candidate of candidates) {
    const clash = others.find((o) => o.key === candidate.key && o.category === candidate.category);
    if (clash) {
      throw invalidAttribute(
        `Variable "${candidate.key}" (${candidate.category}) conflicts with the global variable set "${clash.varset_name}": global variable sets of an organization cannot share a key and category`,
        candidate.pointer,
      );
    }
  }
}

const keyTaken = (pointer: string) => invalidAttribute('Key has already been taken', pointer);

/** New variables for a set: none may repeat another's key and category, in the request or in the set. */
async function assertKeysFree(trx: Trx, varsetId: string, candidates: Candidate[], exceptVariableId?: string): Promise<void> {
  const seen = new Set<string>();
  for (const c of candidates) {
    const id = `${c.category}\u0000${c.key}`;
    if (seen.has(id)) throw keyTaken(c.pointer);
    seen.add(id);
  }
  const existing = await store.findVariablesByKey(trx, varsetId, [...new Set(candidates.map((c) => c.key))]);
  for (const c of candidates) {
    if (existing.some((e) => e.key === c.key && e.category === c.category && e.id !== exceptVariableId)) throw keyTaken(c.pointer);
  }
}

async function assertNameFree(trx: Trx, organizationId: string, name: string, varsetId: string, input: ResourceInput): Promise<void> {
  if (await store.isVarsetNameTaken(trx, organizationId, name, varsetId)) throw input.nameTaken();
}

function assertNotGlobalWhenProjectOwned(varset: { project_id: string | null; global: boolean }, input: ResourceInput): void {
  if (varset.project_id !== null && varset.global) {
    throw invalidAttribute('a variable set owned by a project cannot be global', input.attributePointer('global'));
  }
}

/**
 * Workspaces a set is to be applied to: each must exist in the set's organization (404
 * otherwise), and a set owned by a project reaches only that project's workspaces (422).
 */
async function assertWorkspacesAllowed(trx: Trx, varset: { organization_id: string; project_id: string | null }, ids: string[], pointer: string): Promise<void> {
  const found = new Map((await store.findWorkspacesById(trx, ids)).map((w) => [w.id, w]));
  for (const id of ids) {
    const workspace = found.get(id);
    if (!workspace || workspace.organization_id !== varset.organization_id) throw notFound();
    if (varset.project_id !== null && workspace.project_id !== varset.project_id) {
      throw invalidAttribute(`a variable set owned by a project can only be applied to workspaces of that project (${id} is not)`, pointer);
    }
  }
}

/** Projects a set is to be applied to: each must exist in the set's organization (404), and a project-owned set reaches only its own project (422). */
async function assertProjectsAllowed(trx: Trx, varset: { organization_id: string; project_id: string | null }, ids: string[], pointer: string): Promise<void> {
  const found = new Map((await store.findProjectsById(trx, ids)).map((p) => [p.id, p]));
  for (const id of ids) {
    const project = found.get(id);
    if (!project || project.organization_id !== varset.organization_id) throw notFound();
    if (varset.project_id !== null && id !== varset.project_id) {
      throw invalidAttribute(`a variable set owned by a project can only be applied to that project (${id} is not)`, pointer);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Reading request bodies

type Parent = { type: 'organizations' | 'projects'; id: string; pointer: string };

/** `relationships.parent`: `{data: {type: "organizations"|"projects", id}}`; undefined when absent or null. */
function readParent(input: ResourceInput): Parent | undefined {
  const found = input.relationshipData('parent');
  if (found === undefined || found.data === null) return undefined;
  const data = found.data as { type?: unknown; id?: unknown };
  if (typeof data !== 'object' || Array.isArray(data)) throw invalidAttribute('parent must be an organizations or projects identifier {type, id}', found.pointer);
  if (data.type !== 'organizations' && data.type !== 'projects') throw invalidAttribute('type must be "organizations" or "projects"', `${found.pointer}/type`);
  if (typeof data.id !== 'string' || data.id === '') throw invalidAttribute('id must be a non-empty string', `${found.pointer}/id`);
  return { type: data.type, id: data.id, pointer: found.pointer };
}

interface NewVariable {
  fields: VariableFields;
  pointer: string;
}

/** `relationships.vars`: complete variable definitions to add to the set. */
function readVariableDefinitions(input: ResourceInput): NewVariable[] {
  const found = input.relationshipData('vars');
  if (found === undefined) return [];
  if (!Array.isArray(found.data)) throw invalidAttribute('vars must be an array of vars resources', found.pointer);
  return found.data.map((item, i) => {
    const pointer = `${found.pointer}/${i}`;
    const variable = ResourceInput.fromObject(item, 'vars', pointer);
    return { fields: readNewVariable(variable), pointer: variable.attributePointer('key') };
  });
}

/** The attributes and relationships of a set in a create or update body, checked for shape before anything is read from the store. */
function readVarsetInput(input: ResourceInput, creating: boolean) {
  return {
    name: creating ? input.requiredString('name', { maxLength: NAME_MAX }) : input.string('name', { maxLength: NAME_MAX, nonEmpty: true }),
    description: input.string('description', { maxLength: DESCRIPTION_MAX }),
    global: input.boolean('global'),
    priority: input.boolean('priority'),
    parent: readParent(input),
    workspaceIds: input.identifiers('workspaces', 'workspaces'),
    projectIds: input.identifiers('projects', 'projects'),
    variables: readVariableDefinitions(input),
  };
}

function variableRows(sealer: Sealer, varset: { id: string; organization_id: string; global: boolean }, variables: NewVariable[], createdAt: string) {
  return variables.map(({ fields }) => ({
    id: newId('var'),
    varset_id: varset.id,
    global_organization_id: varset.global ? varset.organization_id : null,
    key: fields.key,
    value: storedValue(sealer, fields),
    description: fields.description,
    category: fields.category,
    hcl: fields.hcl,
    sensitive: fields.sensitive,
    version_id: newVersionId(),
    created_at: createdAt,
  }));
}

const candidatesOf = (variables: NewVariable[]): Candidate[] => variables.map((v) => ({ key: v.fields.key, category: v.fields.category, pointer: v.pointer }));
const relationshipPointer = (name: string) => `/data/relationships/${name}/data`;

// ---------------------------------------------------------------------------------------
// Writes on sets

export async function createVarset(ctx: Context, organizationName: string, input: ResourceInput): Promise<VarsetView> {
  const body = readVarsetInput(input, true);
  const organization = await findOrganizationByName(ctx.store.db, organizationName);
  if (!organization) throw notFound();
  return inOrganizationTransaction(ctx, organization.id, async (trx) => {
    let ownerProjectId: string | null = null;
    if (body.parent?.type === 'organizations' && body.parent.id !== organization.name) throw notFound();
    if (body.parent?.type === 'projects') {
      const [project] = await store.findProjectsById(trx, [body.parent.id]);
      if (!project || project.organization_id !== organization.id) throw notFound();
      ownerProjectId = project.id;
    }
    const timestamp = now();
    const varset = {
      id: newId('varset'),
      organization_id: organization.id,
      project_id: ownerProjectId,
      name: body.name!,
      search_name: searchable(body.name!),
      description: body.description ?? '',
      global: body.global ?? false,
      priority: body.priority ?? false,
      created_at: timestamp,
      updated_at: timestamp,
    };
    ensure(ctx.subject, 'varsets:create', targetOf(varset));
    assertNotGlobalWhenProjectOwned(varset, input);
    await assertNameFree(trx, organization.id, varset.name, varset.id, input);
    await assertWorkspacesAllowed(trx, varset, body.workspaceIds ?? [], relationshipPointer('workspaces'));
    await assertProjectsAllowed(trx, varset, body.projectIds ?? [], relationshipPointer('projects'));
    await assertKeysFree(trx, varset.id, candidatesOf(body.variables));
    await assertNoGlobalConflict(trx, varset, candidatesOf(body.variables));

    await store.insertVarset(trx, { ...varset, global: varset.global });
    await store.insertVariables(trx, variableRows(ctx.sealer, varset, body.variables, timestamp));
    await store.addWorkspaces(trx, varset.id, body.workspaceIds ?? []);
    await store.addProjects(trx, varset.id, body.projectIds ?? []);
    return loadView(ctx, trx, (await store.findVarset(trx, varset.id))!, ALL_ROWS);
  });
}

/**
 * PUT and PATCH alike: attributes absent from the body keep their value (priority too: a
 * client that sends only what changes must not reset it), `workspaces` and `projects`
 * replace the assignments when present, and `vars` adds variables.
 */
export async function updateVarset(ctx: Context, id: string, input: ResourceInput): Promise<VarsetView> {
  const body = readVarsetInput(input, false);
  return changeVarset(ctx, id, 'varset:update', async (trx, current) => {
    if (body.parent) {
      const currentParent = current.project_id === null ? { type: 'organizations', id: current.organization_name } : { type: 'projects', id: current.project_id };
      if (body.parent.type !== currentParent.type || body.parent.id !== currentParent.id) {
        throw invalidAttribute('the parent of a variable set cannot be changed', body.parent.pointer);
      }
    }
    const varset = {
      id: current.id,
      organization_id: current.organization_id,
      project_id: current.project_id,
      name: body.name ?? current.name,
      description: body.description ?? current.description,
      global: body.global ?? current.global,
      priority: body.priority ?? current.priority,
    };
    assertNotGlobalWhenProjectOwned(varset, input);
    if (varset.name !== current.name) await assertNameFree(trx, varset.organization_id, varset.name, varset.id, input);
    if (body.workspaceIds) await assertWorkspacesAllowed(trx, varset, body.workspaceIds, relationshipPointer('workspaces'));
    if (body.projectIds) await assertProjectsAllowed(trx, varset, body.projectIds, relationshipPointer('projects'));
    await assertKeysFree(trx, varset.id, candidatesOf(body.variables));
    const becomingGlobal = varset.global && !current.global;
    const existing: Candidate[] = becomingGlobal
      ? (await store.listVariableKeys(trx, varset.id)).map((v) => ({ ...v, pointer: input.attributePointer('global') }))
      : [];
    await assertNoGlobalConflict(trx, varset, [...existing, ...candidatesOf(body.variables)]);

    const timestamp = now();
    await store.updateVarset(trx, varset.id, {
      name: varset.name,
      search_name: searchable(varset.name),
      description: varset.description,
      global: varset.global,
      priority: varset.priority,
      updated_at: timestamp,
    });
    if (varset.global !== (current.global)) await store.setVariablesGlobal(trx, varset);
    await store.insertVariables(trx, variableRows(ctx.sealer, varset, body.variables, timestamp));
    if (body.workspaceIds) {
      await store.removeWorkspaces(trx, varset.id, 'all');
      await store.addWorkspaces(trx, varset.id, body.workspaceIds);
    }
    if (body.projectIds) {
      await store.removeProjects(trx, varset.id, 'all');
      await store.addProjects(trx, varset.id, body.projectIds);
    }
    return loadView(ctx, trx, (await store.findVarset(trx, varset.id))!, ALL_ROWS);
  });
}

export async function deleteVarset(ctx: Context, id: string): Promise<void> {
  await changeVarset(ctx, id, 'varset:delete', (trx, varset) => store.deleteVarset(trx, varset.id));
}

// ---------------------------------------------------------------------------------------
// Assignments

export type AssignmentKind = 'workspaces' | 'projects';

/** Applies a set to workspaces or projects (adding to those it has; applying twice changes nothing). */
export async function applyVarset(ctx: Context, id: string, kind: AssignmentKind, ids: string[]): Promise<void> {
  await changeAssignments(ctx, id, kind, ids, kind === 'workspaces' ? store.addWorkspaces : store.addProjects);
}

/** Removes a set from the listed workspaces or projects only. */
export async function removeVarset(ctx: Context, id: string, kind: AssignmentKind, ids: string[]): Promise<void> {
  await changeAssignments(ctx, id, kind, ids, kind === 'workspaces' ? store.removeWorkspaces : store.removeProjects);
}

async function changeAssignments(ctx: Context, id: string, kind: AssignmentKind, ids: string[], write: (trx: Trx, varsetId: string, ids: string[]) => Promise<void>) {
  await changeVarset(ctx, id, 'varset:update', async (trx, varset) => {
    if (kind === 'workspaces') await assertWorkspacesAllowed(trx, varset, ids, '/data');
    else await assertProjectsAllowed(trx, varset, ids, '/data');
    await write(trx, varset.id, ids);
    await store.updateVarset(trx, varset.id, { updated_at: now() });
  });
}

// ---------------------------------------------------------------------------------------
// Variables of a set

export async function listVarsetVariables(ctx: Context, varsetId: string, page: Page): Promise<{ rows: VarsetVariable[]; total: number }> {
  const varset = (await readableVarset(ctx, varsetId)).authorized;
  return store.listVariables(ctx.store.db, varset.id, page);
}

export async function showVarsetVariable(ctx: Context, varsetId: string, id: string): Promise<VarsetVariable> {
  const varset = (await readableVarset(ctx, varsetId)).authorized;
  const variable = await store.findVariable(ctx.store.db, varset.id, id);
  if (!variable) throw notFound();
  return variable;
}

export async function addVarsetVariable(ctx: Context, varsetId: string, input: ResourceInput): Promise<VarsetVariable> {
  const variable: NewVariable = { fields: readNewVariable(input), pointer: input.attributePointer('key') };
  return changeVarset(ctx, varsetId, 'varset:update', async (trx, current) => {
    const varset = { ...current, global: current.global };
    await assertKeysFree(trx, varset.id, candidatesOf([variable]));
    await assertNoGlobalConflict(trx, varset, candidatesOf([variable]));
    const timestamp = now();
    const [row] = variableRows(ctx.sealer, varset, [variable], timestamp);
    await store.insertVariables(trx, [row!]);
    await store.updateVarset(trx, varset.id, { updated_at: timestamp });
    return row!;
  });
}

export async function updateVarsetVariable(ctx: Context, varsetId: string, id: string, input: ResourceInput): Promise<VarsetVariable> {
  const changes = readVariableChanges(input);
  return changeVarset(ctx, varsetId, 'varset:update', async (trx, current) => {
    const varset = { ...current, global: current.global };
    const existing = await store.findVariable(trx, varset.id, id);
    if (!existing) throw notFound();
    const fields = applyVariableChanges({ ...existing, hcl: existing.hcl, sensitive: existing.sensitive }, changes, input);
    const candidate = { key: fields.key, category: fields.category, pointer: input.attributePointer(changes.key !== undefined ? 'key' : 'category') };
    await assertKeysFree(trx, varset.id, [candidate], existing.id);
    await assertNoGlobalConflict(trx, varset, [candidate]);
    const value = storedValue(ctx.sealer, fields, existing, changes.value !== undefined);
    const row: VarsetVariable = { ...existing, ...fields, value, hcl: fields.hcl, sensitive: fields.sensitive, version_id: newVersionId() };
    const { id: _, varset_id: __, created_at: ___, ...update } = row;
    await store.updateVariable(trx, existing.id, update);
    await store.updateVarset(trx, varset.id, { updated_at: now() });
    return row;
  });
}

export async function deleteVarsetVariable(ctx: Context, varsetId: string, id: string): Promise<void> {
  await changeVarset(ctx, varsetId, 'varset:update', async (trx, varset) => {
    if (!(await store.deleteVariable(trx, varset.id, id))) throw notFound();
    await store.updateVarset(trx, varset.id, { updated_at: now() });
  });
}
