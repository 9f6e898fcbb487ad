import type { Variable, VariableChanges } from '../variables/model.js';
import type { VariableDefinition, VarsetCommand, VarsetView } from '../varsets/model.js';
import type { SetDocument, VariableDocument } from './documents.js';
import type { SetChange } from './writes.js';

/**
 * What an import does to one set, worked out before anything is written, and what its report
 * says of it. Pure: the target's sets, workspace and project ids, the values given and the way
 * to open a sealed value come in; writes go out.
 */

export type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped' | 'removed';

export interface ItemReport {
  result: Outcome;
  why?: string;
  /** A sensitive variable left without a value: it needs one. */
  'value-needed'?: true;
}

export interface SetReport extends ItemReport {
  name: string;
  variables: (ItemReport & { key: string; category: string })[];
  assignments: (ItemReport & { kind: 'workspace' | 'project'; name: string })[];
}

export type SetWrite =
  { kind: 'create'; command: VarsetCommand } | { kind: 'change'; id: string; change: SetChange } | { kind: 'none' };

export interface Target {
  /** Ids by name; a workspace or project missing here was not created (--no-create). */
  workspaceIds: ReadonlyMap<string, string>;
  projectIds: ReadonlyMap<string, string>;
  /** `set/key` → value, from --values. */
  values: ReadonlyMap<string, string>;
  open: (sealed: string) => string;
}

const variableKey = (v: { category: string; key: string }) => `${v.category}/${v.key}`;

export function newVariable(
  set: string,
  source: VariableDocument,
  target: Target,
  at: number,
): { definition: VariableDefinition; report: ItemReport } {
  const given = source.sensitive ? (target.values.get(`${set}/${source.key}`) ?? source.value) : source.value;
  const changes: VariableChanges = {
    key: source.key,
    category: source.category,
    description: source.description,
    hcl: source.hcl,
    sensitive: source.sensitive,
  };
  if (given !== undefined) changes.value = given;
  else if (source.sensitive) changes.value_needed = true;
  return {
    definition: { changes, at: `vars[${at}]` },
    report: { result: 'created', ...(changes.value_needed ? { 'value-needed': true as const } : {}) },
  };
}

export function changedVariable(
  set: string,
  source: VariableDocument,
  current: Variable,
  target: Target,
): { changes: VariableChanges; report: ItemReport } {
  const changes: VariableChanges = {};
  if (current.sensitive && !source.sensitive)
    return { changes, report: { result: 'skipped', why: 'a sensitive variable cannot be made non-sensitive' } };
  if (current.sensitive && current.hcl !== source.hcl)
    return { changes, report: { result: 'skipped', why: 'the hcl flag of a sensitive variable cannot be changed' } };
  if (current.description !== source.description) changes.description = source.description;
  if (current.hcl !== source.hcl) changes.hcl = source.hcl;
  if (source.sensitive && !current.sensitive) changes.sensitive = true;
  const wanted = source.sensitive ? (target.values.get(`${set}/${source.key}`) ?? source.value) : source.value;
  if (wanted !== undefined) {
    const held = current.value_needed ? undefined : current.sensitive ? target.open(current.value) : current.value;
    if (held !== wanted) changes.value = wanted;
  }
  const needed = current.value_needed === true && changes.value === undefined;
  const report: ItemReport = {
    result: Object.keys(changes).length > 0 ? 'updated' : 'unchanged',
    ...(needed ? { 'value-needed': true as const } : {}),
  };
  return { changes, report };
}

/** Assignments of one kind: the ids the set must have, and the report of each. */
function assignments(
  kind: 'workspace' | 'project',
  wanted: string[],
  ids: ReadonlyMap<string, string>,
  current: string[],
  names: ReadonlyMap<string, string>,
) {
  const reports: SetReport['assignments'] = [];
  const wantedIds: string[] = [];
  for (const name of wanted) {
    const id = ids.get(name);
    if (id === undefined)
      reports.push({
        kind,
        name,
        result: 'skipped',
        why: `the ${kind} is not in the target organization (--no-create)`,
      });
    else {
      wantedIds.push(id);
      reports.push({ kind, name, result: current.includes(id) ? 'unchanged' : 'created' });
    }
  }
  for (const id of current)
    if (!wantedIds.includes(id))
      reports.push({ kind, name: names.get(id) ?? id, result: 'removed', why: 'not in the source' });
  const changed = wantedIds.length !== current.length || wantedIds.some((id) => !current.includes(id));
  return { reports, ids: changed ? wantedIds : undefined };
}

const invert = (map: ReadonlyMap<string, string>) => new Map([...map].map(([name, id]) => [id, name]));

/** What importing `source` does to the target's set of that name (`current`, or undefined when it has none). */
export function planSet(
  source: SetDocument,
  current: VarsetView | undefined,
  target: Target,
): { report: SetReport; write: SetWrite } {
  const report: SetReport = { name: source.name, result: 'unchanged', variables: [], assignments: [] };
  const ownerId = source.project === null ? null : target.projectIds.get(source.project);
  if (ownerId === undefined) {
    return {
      report: {
        ...report,
        result: 'skipped',
        why: `its project ${source.project} is not in the target organization (--no-create)`,
      },
      write: { kind: 'none' },
    };
  }
  const currentWorkspaces = current?.workspaces.map((w) => w.id) ?? [];
  const currentProjects = current?.projects.map((p) => p.id) ?? [];
  const workspaces = assignments(
    'workspace',
    source.workspaces,
    target.workspaceIds,
    currentWorkspaces,
    invert(target.workspaceIds),
  );
  const projects = assignments(
    'project',
    source.projects,
    target.projectIds,
    currentProjects,
    invert(target.projectIds),
  );
  report.assignments = [...workspaces.reports, ...projects.reports];

  const added: VariableDefinition[] = [];
  const updates: SetChange['updates'] = [];
  const deletions: string[] = [];
  const held = new Map((current?.variables ?? []).map(({ row }) => [variableKey(row!), row!]));
  for (const variable of source.variables) {
    const existing = held.get(variableKey(variable));
    held.delete(variableKey(variable));
    const item = { key: variable.key, category: variable.category };
    if (existing === undefined) {
      const { definition, report: r } = newVariable(source.name, variable, target, added.length);
      added.push(definition);
      report.variables.push({ ...item, ...r });
      continue;
    }
    const { changes, report: r } = changedVariable(source.name, variable, existing, target);
    if (r.result === 'updated') updates.push({ id: existing.id, changes });
    report.variables.push({ ...item, ...r });
  }
  for (const gone of held.values()) {
    deletions.push(gone.id);
    report.variables.push({ key: gone.key, category: gone.category, result: 'removed', why: 'not in the source' });
  }

  if (current === undefined) {
    const command: VarsetCommand = {
      name: source.name,
      description: source.description,
      global: source.global,
      priority: source.priority,
      ...(ownerId === null ? {} : { parent: { type: 'projects' as const, id: ownerId } }),
      workspaceIds: workspaces.ids ?? [],
      projectIds: projects.ids ?? [],
      variables: added,
    };
    return { report: { ...report, result: 'created' }, write: { kind: 'create', command } };
  }
  if (current.varset.project_id !== ownerId) {
    return {
      report: {
        ...report,
        result: 'skipped',
        why: 'the project that owns a set cannot change',
        variables: [],
        assignments: [],
      },
      write: { kind: 'none' },
    };
  }
  const attributes: Partial<VarsetCommand> = {};
  if (current.varset.description !== source.description) attributes.description = source.description;
  if (current.varset.global !== source.global) attributes.global = source.global;
  if (current.varset.priority !== source.priority) attributes.priority = source.priority;
  const commandNeeded =
    Object.keys(attributes).length > 0 ||
    added.length > 0 ||
    workspaces.ids !== undefined ||
    projects.ids !== undefined;
  const command: VarsetCommand | null = commandNeeded
    ? {
        ...attributes,
        ...(workspaces.ids ? { workspaceIds: workspaces.ids } : {}),
        ...(projects.ids ? { projectIds: projects.ids } : {}),
        variables: added,
      }
    : null;
  if (!command && updates.length === 0 && deletions.length === 0) return { report, write: { kind: 'none' } };
  return {
    report: { ...report, result: 'updated' },
    write: { kind: 'change', id: current.varset.id, change: { command, updates, deletions } },
  };
}
