import type { Context } from '../context.js';
import { can, ensure, type Action } from '../auth/policy.js';
import { newId, now } from '../ids.js';
import { invalidAttribute, notFound, unprocessable } from '../jsonapi/errors.js';
import { ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { recordRunEvent } from '../run-events/store.js';
import { snapshotEffectiveVariables } from '../effective/service.js';
import { getWorkspace } from '../workspaces/service.js';
import type { RunPermissions } from './serialize.js';
import { findRun, listRuns, type Run } from './store.js';
import { targetOfWorkspace, type WorkspaceTarget } from './target.js';

export const DEFAULT_MESSAGE = 'Triggered via API';
const MESSAGE_MAX = 10_000;
const VARIABLE_KEY_MAX = 128;
const VARIABLE_VALUE_MAX = 256 * 1024;

export interface RunVariable {
  key: string;
  value: string;
}

/** A run and where it lives, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getRun(ctx: Context, id: string, action: Action = 'run:read'): Promise<{ run: Run; target: WorkspaceTarget }> {
  const found = await findRun(ctx.store.db, id);
  if (!found) throw notFound();
  ensure(ctx.subject, action, found.target);
  return found;
}

export function runPermissions(ctx: Context, target: WorkspaceTarget): RunPermissions {
  return { canComment: can(ctx.subject, 'comment:create', target) };
}

export async function listWorkspaceRuns(ctx: Context, workspaceId: string, page: Page) {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'run:read');
  return { ...(await listRuns(ctx.store.db, workspace.id, page)), permissions: runPermissions(ctx, targetOfWorkspace(workspace)) };
}

/**
 * Creates a run on the given configuration version, or on the workspace's latest uploaded
 * one, and records its `created` event. varsetd executes nothing: the run stays `pending`.
 */
export async function createRun(ctx: Context, body: unknown): Promise<{ run: Run; permissions: RunPermissions }> {
  const input = ResourceInput.read(body, 'runs');
  const workspaceId = input.identifier('workspace', 'workspaces');
  if (workspaceId === undefined) throw invalidAttribute('workspace is required', '/data/relationships/workspace');
  const cvId = input.identifier('configuration-version', 'configuration-versions');
  const message = input.string('message', { maxLength: MESSAGE_MAX }) ?? DEFAULT_MESSAGE;
  const isDestroy = input.boolean('is-destroy') ?? false;
  const variables = readRunVariables(input);

  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'run:create');
  const run = await ctx.store.db.transaction().execute(async (trx) => {
    let cvQuery = trx.selectFrom('configuration_versions').select(['id', 'status', 'speculative']).where('workspace_id', '=', workspace.id);
    cvQuery = cvId === undefined ? cvQuery.where('status', '=', 'uploaded').orderBy('seq', 'desc').limit(1) : cvQuery.where('id', '=', cvId);
    const cv = await cvQuery.executeTakeFirst();
    const pointer = '/data/relationships/configuration-version';
    // A version of another workspace is as unknown here as a missing one.
    if (!cv && cvId !== undefined) throw notFound();
    if (!cv) throw unprocessable('the workspace has no uploaded configuration version to run', pointer);
    if (cv.status !== 'uploaded') throw unprocessable(`configuration version ${cv.id} is ${cv.status}; a run needs an uploaded one`, pointer);
    const run: Run = {
      id: newId('run'),
      workspace_id: workspace.id,
      configuration_version_id: cv.id,
      status: 'pending',
      message,
      is_destroy: isDestroy,
      plan_only: cv.speculative,
      variables: JSON.stringify(variables),
      created_at: now(),
    };
    await trx.insertInto('runs').values(run).execute();
    await recordRunEvent(trx, run.id, 'created', 'Run created', ctx.subject, run.created_at);
    await snapshotEffectiveVariables(trx, workspace, run.id, variables);
    return run;
  });
  return { run, permissions: runPermissions(ctx, targetOfWorkspace(workspace)) };
}

/** `variables`: an array of `{key, value}` strings, each key once. */
function readRunVariables(input: ResourceInput): RunVariable[] {
  const raw = input.attributes.variables;
  const pointer = input.attributePointer('variables');
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidAttribute('variables must be an array of {key, value} objects', pointer);
  const seen = new Set<string>();
  return raw.map((item: unknown, i) => {
    const at = `${pointer}/${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalidAttribute('each variable must be an object with key and value', at);
    const { key, value } = item as Record<string, unknown>;
    if (typeof key !== 'string' || key === '') throw invalidAttribute('key must be a non-empty string', `${at}/key`);
    if (key.length > VARIABLE_KEY_MAX) throw invalidAttribute(`key is too long (maximum is ${VARIABLE_KEY_MAX} characters)`, `${at}/key`);
    if (typeof value !== 'string') throw invalidAttribute('value must be a string (an HCL literal)', `${at}/value`);
    if (value.length > VARIABLE_VALUE_MAX) throw invalidAttribute(`value is too long (maximum is ${VARIABLE_VALUE_MAX} characters)`, `${at}/value`);
    if (seen.has(key)) throw invalidAttribute(`variable ${key} is given more than once`, `${at}/key`);
    seen.add(key);
    return { key, value };
  });
}
