import type { Context } from '../auth/context.js';
import { recordAuditEvent } from '../audit/service.js';
import { can, ensure } from '../auth/decisions.js';
import type { Action } from '../auth/actions.js';
import type { Subject } from '../auth/subject.js';
import { locationOfWorkspace, type WorkspaceLocation } from '../common/location.js';
import { transaction, type Trx } from '../db/transaction.js';
import { findRunnableConfigurationVersion } from '../configuration-versions/service.js';
import { openRunVariables, snapshotEffectiveVariables, type OpenedVariable } from '../effective/service.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Invalid, Unprocessable, Conflict } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { getWorkspace } from '../workspaces/service.js';
import {
  DEFAULT_MESSAGE,
  isFinished,
  type Run,
  type RunEvent,
  type RunFilter,
  type RunPermissions,
  type RunStatus,
  type RunVariable,
} from './model.js';
import * as store from './store.js';

export type { Run, RunEvent, RunPermissions, RunVariable };

/** A run and where it is, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getRun(
  ctx: Context,
  id: string,
  action: Action = 'run:read',
): Promise<{ run: Run; location: WorkspaceLocation }> {
  const found = await store.findRun(ctx.store.db, id);
  if (!found) throw new NotFound();
  ensure(ctx.subject, action, found.location);
  return found;
}

export function runPermissions(ctx: Context, location: WorkspaceLocation): RunPermissions {
  return { canComment: can(ctx.subject, 'comment:create', location) };
}

export async function listWorkspaceRuns(ctx: Context, workspaceId: string, filter: RunFilter, page: Page) {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'run:read');
  return {
    ...(await store.listRuns(ctx.store.db, workspace.id, filter, page)),
    permissions: runPermissions(ctx, locationOfWorkspace(workspace)),
  };
}

/** The ids of the runs' events, for their `run-events` relationship; the caller has read the runs. */
export function runEventIdsOf(ctx: Context, runs: readonly Run[]): Promise<Map<string, string[]>> {
  return store.findRunEventIds(
    ctx.store.db,
    runs.map((run) => run.id),
  );
}

export interface NewRun {
  workspaceId: string;
  /** The workspace's latest uploaded configuration version when undefined. */
  configurationVersionId: string | undefined;
  message: string | undefined;
  isDestroy: boolean | undefined;
  variables: RunVariable[];
}

/**
 * Creates a run on the given configuration version, or on the workspace's latest uploaded
 * one, with its `created` event and its effective variables, in one transaction. varsetd
 * executes nothing: the run stays `pending`.
 */
export async function createRun(ctx: Context, command: NewRun): Promise<{ run: Run; permissions: RunPermissions }> {
  assertKeysGivenOnce(command.variables);
  const { workspace } = await getWorkspace(ctx, { id: command.workspaceId }, 'run:create');
  const run = await transaction(ctx.store, async (trx) => {
    const cv = await findRunnableConfigurationVersion(trx, workspace.id, command.configurationVersionId);
    const field = 'configuration-version';
    // A version of another workspace is as unknown here as a missing one.
    if (!cv && command.configurationVersionId !== undefined) throw new NotFound();
    if (!cv) throw new Unprocessable('the workspace has no uploaded configuration version to run', field);
    if (cv.status !== 'uploaded')
      throw new Unprocessable(`configuration version ${cv.id} is ${cv.status}; a run needs an uploaded one`, field);
    const run: Run = {
      id: newId('run'),
      workspace_id: workspace.id,
      configuration_version_id: cv.id,
      status: 'pending',
      message: command.message ?? DEFAULT_MESSAGE,
      is_destroy: command.isDestroy ?? false,
      plan_only: cv.speculative,
      variables: command.variables,
      created_at: now(),
      created_by_token_id: ctx.subject.tokenId,
      planning_at: null,
      finished_at: null,
    };
    await store.insertRun(trx, run);
    await recordRunEvent(trx, run.id, 'created', 'Run created', ctx.subject, run.created_at);
    await snapshotEffectiveVariables(trx, workspace, run.id, command.variables);
    const meta = { workspace_id: workspace.id, configuration_version_id: cv.id, is_destroy: run.is_destroy };
    recordAuditEvent(trx, ctx, {
      organizationId: workspace.organization_id,
      type: 'run',
      id: run.id,
      action: 'create',
      meta,
    });
    return run;
  });
  return { run, permissions: runPermissions(ctx, locationOfWorkspace(workspace)) };
}

/** A run variable is given once: Terraform would refuse a second value for one input variable. */
function assertKeysGivenOnce(variables: RunVariable[]): void {
  const seen = new Set<string>();
  variables.forEach(({ key }, i) => {
    if (seen.has(key)) throw new Invalid(`variables[${i}].key`, `variable ${key} is given more than once`);
    seen.add(key);
  });
}

/**
 * The run, if the acting token is the very one that created it and may still queue runs on
 * its workspace; for every other caller (the owners team and other tokens of the same team
 * included) the 404 of a missing run: a run's id alone gives nothing.
 */
async function getOwnRun(ctx: Context, id: string): Promise<{ run: Run; location: WorkspaceLocation }> {
  const found = await store.findRun(ctx.store.db, id);
  if (!found || found.run.created_by_token_id !== ctx.subject.tokenId) throw new NotFound();
  ensure(ctx.subject, 'run:create', found.location);
  return found;
}

/** The run for its own token (as `getOwnRun`) while it has not finished: 409 afterwards. */
export async function getOwnUnfinishedRun(
  ctx: Context,
  id: string,
): Promise<{ run: Run; location: WorkspaceLocation }> {
  const found = await getOwnRun(ctx, id);
  if (isFinished(found.run)) throw new Conflict(`run ${id} has finished`);
  return found;
}

/**
 * The run's variables with sensitive values opened, for its own token while the run has not
 * finished (409 afterwards); every read is recorded as a `variables-opened` run event.
 */
export async function openOwnRunVariables(ctx: Context, id: string): Promise<OpenedVariable[]> {
  const { run } = await getOwnRun(ctx, id);
  return transaction(ctx.store, async (trx) => {
    const current = await store.findRun(trx, run.id);
    if (!current) throw new NotFound();
    if (isFinished(current.run))
      throw new Conflict(`run ${run.id} has finished; its variables are no longer available`);
    await recordRunEvent(
      trx,
      run.id,
      'variables-opened',
      'Variables read with sensitive values by the token that created the run',
      ctx.subject,
    );
    return openRunVariables(trx, ctx.sealer, run.id);
  });
}

/** The run's own token reports that its plan started: pending → planning. */
export async function startRun(ctx: Context, id: string): Promise<{ run: Run; permissions: RunPermissions }> {
  return moveOwnRun(ctx, id, 'start', ['pending'], 'planning', 'Plan started');
}

/**
 * The run's own token reports that its command ended: planned when it exited with 0, errored
 * otherwise. A run that never started (its command could not be run) may finish too.
 */
export async function finishRun(
  ctx: Context,
  id: string,
  exitCode: number,
): Promise<{ run: Run; permissions: RunPermissions }> {
  return exitCode === 0
    ? moveOwnRun(ctx, id, 'finish', ['pending', 'planning'], 'planned', 'Plan finished: the command exited with 0')
    : moveOwnRun(ctx, id, 'finish', ['pending', 'planning'], 'errored', `Errored: the command exited with ${exitCode}`);
}

async function moveOwnRun(
  ctx: Context,
  id: string,
  action: 'start' | 'finish',
  from: readonly RunStatus[],
  to: Exclude<RunStatus, 'pending'>,
  description: string,
) {
  const { run, location } = await getOwnRun(ctx, id);
  const at = now();
  const moved = await transaction(ctx.store, async (trx) => {
    const current = await store.findRun(trx, run.id);
    if (!current) throw new NotFound();
    const wrongStatus = () =>
      new Conflict(`run ${run.id} is ${current.run.status}; it can become ${to} only when it is ${from.join(' or ')}`);
    if (!from.includes(current.run.status)) throw wrongStatus();
    const timestamps = to === 'planning' ? { planning_at: at } : { finished_at: at };
    // The update is conditional too: a concurrent move may have committed since the read.
    if (!(await store.updateRunStatus(trx, run.id, from, to, timestamps))) throw wrongStatus();
    await recordRunEvent(trx, run.id, to, description, ctx.subject, at);
    recordAuditEvent(trx, ctx, {
      organizationId: location.organizationId,
      type: 'run',
      id: run.id,
      action,
      meta: { status: to },
    });
    return (await store.findRun(trx, run.id))!.run;
  });
  return { run: moved, permissions: runPermissions(ctx, location) };
}

/** Records something that happened to a run (at `at`, by default now), and who did it, inside the caller's transaction. */
export async function recordRunEvent(
  trx: Trx,
  runId: string,
  action: RunEvent['action'],
  description: string,
  subject: Subject,
  at = now(),
): Promise<RunEvent> {
  const event: RunEvent = {
    id: newId('re'),
    run_id: runId,
    action,
    description,
    actor_kind: subject.kind,
    actor_id:
      subject.kind === 'team' ? subject.teamId : subject.kind === 'organization' ? subject.organizationId : null,
    created_at: at,
  };
  await store.insertRunEvent(trx, event);
  return event;
}
