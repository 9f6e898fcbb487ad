import type { Context } from '../auth/context.js';
import { getOrganization } from '../organizations/service.js';
import { changedVariable, newVariable, planSet, type ItemReport, type SetReport, type Target } from './plan.js';
import type { SourceOrganization } from './source.js';
import { importTags, type TagReport } from './tags.js';
import { readTarget, workspaceVariables } from './target.js';
import {
  attempt,
  importNewSet,
  importProject,
  importSetChange,
  importWorkspace,
  importWorkspaceVariable,
} from './writes.js';

/**
 * An import, from a source read whole before anything is written, into an organization, through
 * the services as the context's subject: what `varsetd import` runs on the store and the API's
 * import runs for an organization's owners. A dry run writes nothing and reports the same.
 */

export type { ItemReport, SetReport, TagReport };

/** What an import did, or would do in a dry run: the report `varsetd import --json` prints and the API answers. */
export interface ImportReport {
  source: string;
  organization: string;
  'dry-run': boolean;
  /** Whether the sensitive values were read from the source (--include-sensitive). */
  'include-sensitive': boolean;
  projects: (ItemReport & { name: string })[];
  workspaces: (ItemReport & { name: string })[];
  sets: SetReport[];
  'workspace-tags': TagReport[];
  'workspace-variables': (ItemReport & { workspace: string; key: string; category: string })[];
  skipped: { what: string; why: string }[];
}

export interface ImportOptions {
  /** The source as the report and the audit trail name it (no credentials). */
  source: string;
  /** The organization written to. */
  organization: string;
  dryRun: boolean;
  /** Whether the source's sensitive values were read (the report says so). */
  includeSensitive?: boolean;
  /** Sensitive values by `set/key` (--values). */
  values?: ReadonlyMap<string, string>;
  /** Create missing projects and workspaces (unless --no-create). */
  create?: boolean;
}

export async function runImport(
  base: Context,
  source: SourceOrganization,
  options: ImportOptions,
): Promise<ImportReport> {
  const { values = new Map<string, string>(), create = true, dryRun } = options;
  const report: ImportReport = {
    source: options.source,
    organization: options.organization,
    'dry-run': dryRun,
    'include-sensitive': options.includeSensitive ?? false,
    projects: [],
    workspaces: [],
    sets: [],
    'workspace-tags': [],
    'workspace-variables': [],
    skipped: source.skipped,
  };
  // Each write says it is an import from the source (a set's audit event and version keep it).
  const ctx: Context = { ...base, cause: `import from ${report.source}` };
  const into = report.organization;
  await getOrganization(ctx, into);
  const target = await readTarget(ctx, into);
  const made = async (
    kind: 'project' | 'workspace',
    name: string,
    ids: Map<string, string>,
    write: () => Promise<string>,
  ) => {
    const list = kind === 'project' ? report.projects : report.workspaces;
    if (ids.has(name)) return list.push({ name, result: 'unchanged' });
    if (!create) return list.push({ name, result: 'skipped', why: `not in the target organization, and --no-create` });
    ids.set(name, dryRun ? `(new ${kind} ${name})` : await write());
    return list.push({ name, result: 'created' });
  };
  for (const name of source.projects)
    await made('project', name, target.projectIds, () => importProject(ctx, into, name));
  for (const { name, project } of source.workspaces) {
    await made('workspace', name, target.workspaceIds, () =>
      importWorkspace(ctx, into, name, project === null ? undefined : target.projectIds.get(project)),
    );
  }

  report['workspace-tags'] = await importTags(ctx, source.workspaces, target, dryRun);

  const plan: Target = {
    workspaceIds: target.workspaceIds,
    projectIds: target.projectIds,
    values,
    open: (sealed) => ctx.sealer.open(sealed),
  };
  for (const set of source.sets) {
    const { report: setReport, write } = planSet(set, target.sets.get(set.name), plan);
    if (!dryRun && write.kind !== 'none') {
      const refused = await attempt(() =>
        write.kind === 'create' ? importNewSet(ctx, into, write.command) : importSetChange(ctx, write.id, write.change),
      );
      if (refused !== undefined) Object.assign(setReport, { result: 'skipped', why: refused });
    }
    report.sets.push(setReport);
  }

  for (const { workspace, variables } of source.workspaceVariables) {
    const id = target.workspaceIds.get(workspace);
    const held = id === undefined || id.startsWith('(new ') ? [] : await workspaceVariables(ctx, id);
    for (const variable of variables) {
      const item = { workspace, key: variable.key, category: variable.category };
      if (id === undefined) {
        report['workspace-variables'].push({
          ...item,
          result: 'skipped',
          why: 'the workspace is not in the target organization (--no-create)',
        });
        continue;
      }
      const existing = held.find((v) => v.key === variable.key && v.category === variable.category);
      const planned = existing
        ? changedVariable(workspace, variable, existing, plan)
        : newVariable(workspace, variable, plan, 0);
      const changes = 'changes' in planned ? planned.changes : planned.definition.changes;
      let result: ItemReport = planned.report;
      if (!dryRun && (result.result === 'created' || result.result === 'updated')) {
        const refused = await attempt(() => importWorkspaceVariable(ctx, id, existing?.id ?? null, changes));
        if (refused !== undefined) result = { result: 'skipped', why: refused };
      }
      report['workspace-variables'].push({ ...item, ...result });
    }
  }
  return report;
}
