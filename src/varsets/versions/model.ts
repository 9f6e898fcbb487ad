import type { Category, VariableFields } from '../../variables/model.js';

/**
 * The versions of a variable set: what a set is at a version (its state), what a write
 * changed (its changes, worked out from the state before and after), and what the set was
 * before a version (undoing its changes), which a rollback needs. Pure: sealing and opening
 * sensitive values are given to the functions that need them.
 */

/** A variable as a version keeps it: its fields, `value` sealed when `sensitive`. */
export type VariableState = VariableFields;

/** What a set is, as far as its versions are concerned: its attributes, variables (by id) and assignments. */
export interface VarsetState {
  name: string;
  description: string;
  global: boolean;
  priority: boolean;
  variables: Map<string, VariableState>;
  workspaceIds: Set<string>;
  projectIds: Set<string>;
}

export const ATTRIBUTES = ['name', 'description', 'global', 'priority'] as const;
export type Attribute = (typeof ATTRIBUTES)[number];
/** A variable's fields a change names; `value-needed` is its `value_needed` (absent: false). */
export const VARIABLE_FIELDS = ['key', 'value', 'description', 'category', 'hcl', 'sensitive', 'value-needed'] as const;
export type VariableField = (typeof VARIABLE_FIELDS)[number];

/** A field of a variable's, read as a change names it. */
const fieldOf = (v: VariableState, field: VariableField) =>
  field === 'value-needed' ? v.value_needed === true : v[field];

/**
 * A variable as a change shows it: its value is null when it is sensitive; `value-needed` only
 * when true (versions written before it was kept lack it: false).
 */
export type ShownVariable = Omit<VariableState, 'value' | 'value_needed'> & {
  value: string | null;
  'value-needed'?: true;
};

/**
 * One thing a version changed. An attribute or a field of a variable has a `before` and an
 * `after`; a variable, workspace or project that was added or removed has the whole of it on
 * one side (null on the other). A sensitive value is never shown: `sensitive` says that
 * `before` and `after` are null for that reason.
 */
export type Change =
  | {
      target: 'varset';
      action: 'changed';
      field: Attribute;
      before: string | boolean | null;
      after: string | boolean | null;
    }
  | {
      target: 'variable';
      id: string;
      key: string;
      category: Category;
      action: 'added' | 'removed';
      before: ShownVariable | null;
      after: ShownVariable | null;
    }
  | {
      target: 'variable';
      id: string;
      key: string;
      category: Category;
      action: 'changed';
      field: VariableField;
      before: string | boolean | null;
      after: string | boolean | null;
      sensitive: boolean;
    }
  | { target: 'workspace' | 'project'; id: string; action: 'added' | 'removed' };

export type VersionAction = 'create' | 'update' | 'delete' | 'rollback';

/** Who made a version: the token, its kind, its team, and the words that describe it. */
export interface Actor {
  tokenId: string;
  kind: 'site-admin' | 'team' | 'organization';
  teamId: string | null;
  description: string;
}

export interface VarsetVersion {
  id: string;
  varsetId: string;
  organizationId: string;
  /** The organization's API id. */
  organizationName: string;
  projectId: string | null;
  number: number;
  action: VersionAction;
  rolledBackTo: number | null;
  /** The set's name after the version (before it, for a deletion). */
  varsetName: string;
  createdAt: string;
  actor: Actor;
  requestId: string;
  /** Why the version was written, when its writer said more than a request does (`import from URL`); else null. */
  cause: string | null;
  changes: Change[];
}

/** A version as a store reads it (its organization's name joined); numbers may come as strings (PostgreSQL's bigint). */
export interface VersionColumns {
  id: string;
  varset_id: string;
  organization_id: string;
  organization_name: string;
  project_id: string | null;
  number: number | string;
  action: VersionAction;
  rolled_back_to: number | string | null;
  varset_name: string;
  created_at: string;
  actor_token_id: string;
  actor_kind: Actor['kind'];
  actor_team_id: string | null;
  actor_description: string;
  request_id: string;
  cause: string | null;
  changes: string;
}

/** The version a row holds: every reader of versions (their own routes, the notification queue) reads it so. */
export function versionFromRow(row: VersionColumns): VarsetVersion {
  return {
    id: row.id,
    varsetId: row.varset_id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    projectId: row.project_id,
    number: Number(row.number),
    action: row.action,
    rolledBackTo: row.rolled_back_to === null ? null : Number(row.rolled_back_to),
    varsetName: row.varset_name,
    createdAt: row.created_at,
    actor: {
      tokenId: row.actor_token_id,
      kind: row.actor_kind,
      teamId: row.actor_team_id,
      description: row.actor_description,
    },
    requestId: row.request_id,
    cause: row.cause,
    changes: JSON.parse(row.changes) as Change[],
  };
}

/**
 * The set's state narrowed to one variable (or to none): what a write of that variable alone
 * compares. All else is the same before and after such a write, so the difference of the two
 * narrowed states is the difference of the whole ones.
 */
export function narrowedTo(
  varset: Pick<VarsetState, Attribute>,
  variable: (VariableState & { id: string }) | null,
): VarsetState {
  const { name, description, global, priority } = varset;
  const variables = new Map<string, VariableState>();
  if (variable) {
    variables.set(variable.id, {
      key: variable.key,
      value: variable.value,
      description: variable.description,
      category: variable.category,
      hcl: variable.hcl,
      sensitive: variable.sensitive,
      value_needed: variable.value_needed === true,
    });
  }
  return { name, description, global, priority, variables, workspaceIds: new Set(), projectIds: new Set() };
}

/** A version with the sealed sensitive values it replaced or removed (by variable id): what undoing it needs. */
export interface UndoableVersion {
  number: number;
  changes: Change[];
  sealed: Record<string, string>;
}

/** What opening and sealing a value take; the diff needs them for sensitive values only. */
export interface Secrets {
  open(sealed: string): string;
  seal(value: string): string;
}

const shown = (v: VariableState): ShownVariable => ({
  key: v.key,
  value: v.sensitive ? null : v.value,
  description: v.description,
  category: v.category,
  hcl: v.hcl,
  sensitive: v.sensitive,
  ...(v.value_needed ? { 'value-needed': true as const } : {}),
});

/** The value a variable holds, opened when sealed. */
const plainValue = (v: VariableState, secrets: Secrets) => (v.sensitive ? secrets.open(v.value) : v.value);

/** The value `v` holds, sealed: what a version keeps of a sensitive value it replaces or removes. */
const sealedValue = (v: VariableState, secrets: Secrets) => (v.sensitive ? v.value : secrets.seal(v.value));

/**
 * What changed from `before` to `after` (null: the set did not exist), and the sensitive values
 * it replaced or removed, sealed. A value is shown only when the variable is sensitive neither
 * before nor after; sensitive values are compared opened (sealing the same value twice gives
 * two different texts).
 */
export function diffStates(
  before: VarsetState | null,
  after: VarsetState | null,
  secrets: Secrets,
): { changes: Change[]; sealed: Record<string, string> } {
  const changes: Change[] = [];
  const sealed: Record<string, string> = {};
  for (const field of ATTRIBUTES) {
    const was = before ? before[field] : null;
    const is = after ? after[field] : null;
    if (was !== is) changes.push({ target: 'varset', action: 'changed', field, before: was, after: is });
  }
  const wasVariables = before?.variables ?? new Map<string, VariableState>();
  const isVariables = after?.variables ?? new Map<string, VariableState>();
  for (const [id, was] of wasVariables) {
    const is = isVariables.get(id);
    if (!is) {
      changes.push({
        target: 'variable',
        id,
        key: was.key,
        category: was.category,
        action: 'removed',
        before: shown(was),
        after: null,
      });
      if (was.sensitive) sealed[id] = was.value;
      continue;
    }
    const hidden = was.sensitive || is.sensitive;
    for (const field of VARIABLE_FIELDS) {
      const same =
        field === 'value'
          ? (was.value === is.value && was.sensitive === is.sensitive) ||
            plainValue(was, secrets) === plainValue(is, secrets)
          : fieldOf(was, field) === fieldOf(is, field);
      if (same) continue;
      const secret = field === 'value' && hidden;
      if (secret) sealed[id] = sealedValue(was, secrets);
      changes.push({
        target: 'variable',
        id,
        key: is.key,
        category: is.category,
        action: 'changed',
        field,
        before: secret ? null : fieldOf(was, field),
        after: secret ? null : fieldOf(is, field),
        sensitive: secret,
      });
    }
  }
  for (const [id, is] of isVariables) {
    if (!wasVariables.has(id))
      changes.push({
        target: 'variable',
        id,
        key: is.key,
        category: is.category,
        action: 'added',
        before: null,
        after: shown(is),
      });
  }
  for (const [target, was, is] of [
    ['workspace', before?.workspaceIds, after?.workspaceIds],
    ['project', before?.projectIds, after?.projectIds],
  ] as const) {
    for (const id of was ?? []) if (!is?.has(id)) changes.push({ target, id, action: 'removed' });
    for (const id of is ?? []) if (!was?.has(id)) changes.push({ target, id, action: 'added' });
  }
  return { changes, sealed };
}

/** A set's state that is being taken back version by version: attributes are null while the set does not exist. */
interface Draft {
  name: string | null;
  description: string | null;
  global: boolean | null;
  priority: boolean | null;
  variables: Map<string, VariableState>;
  workspaceIds: Set<string>;
  projectIds: Set<string>;
}

/**
 * What the set was before `versions` (newest first), starting from what it is now (`current`,
 * null when it was deleted): each version's changes undone in turn, sensitive values put back
 * from what each version sealed. Null when the set did not exist then. A variable that is
 * sensitive now, or became so in a version undone, stays sensitive: a rollback never shows a
 * value that was made secret since.
 */
export function undoVersions(current: VarsetState | null, versions: UndoableVersion[]): VarsetState | null {
  const draft: Draft = current
    ? {
        ...current,
        variables: new Map(current.variables),
        workspaceIds: new Set(current.workspaceIds),
        projectIds: new Set(current.projectIds),
      }
    : {
        name: null,
        description: null,
        global: null,
        priority: null,
        variables: new Map(),
        workspaceIds: new Set(),
        projectIds: new Set(),
      };
  for (const version of versions) {
    for (const change of [...version.changes].reverse()) undoChange(draft, change, version.sealed);
  }
  const { name, description, global, priority } = draft;
  if (name === null || description === null || global === null || priority === null) return null;
  return {
    name,
    description,
    global,
    priority,
    variables: draft.variables,
    workspaceIds: draft.workspaceIds,
    projectIds: draft.projectIds,
  };
}

function undoChange(draft: Draft, change: Change, sealed: Record<string, string>): void {
  switch (change.target) {
    case 'varset':
      (draft as unknown as Record<Attribute, string | boolean | null>)[change.field] = change.before;
      return;
    case 'workspace':
    case 'project': {
      const ids = change.target === 'workspace' ? draft.workspaceIds : draft.projectIds;
      if (change.action === 'added') ids.delete(change.id);
      else ids.add(change.id);
      return;
    }
    case 'variable':
      if (change.action === 'added') draft.variables.delete(change.id);
      else if (change.action === 'removed') {
        const { value, 'value-needed': needed, ...fields } = change.before!;
        draft.variables.set(change.id, {
          ...fields,
          value: fields.sensitive ? sealed[change.id]! : value!,
          ...(needed ? { value_needed: true } : {}),
        });
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- tsc needs the test to narrow the change
      } else if (change.action === 'changed') undoFieldChange(draft, change, sealed);
      return;
  }
}

function undoFieldChange(
  draft: Draft,
  change: Extract<Change, { action: 'changed'; target: 'variable' }>,
  sealed: Record<string, string>,
): void {
  const variable = draft.variables.get(change.id);
  // Changed by a write no version records (it predates versions): nothing to take back.
  if (!variable) return;
  switch (change.field) {
    case 'value':
      // A value that was or became sensitive was kept sealed; the variable stays sensitive.
      if (change.sensitive) draft.variables.set(change.id, { ...variable, value: sealed[change.id]!, sensitive: true });
      else draft.variables.set(change.id, { ...variable, value: change.before as string });
      return;
    case 'sensitive':
      // Never back to non-sensitive: its value stays sealed.
      return;
    case 'value-needed':
      draft.variables.set(change.id, { ...variable, value_needed: change.before === true });
      return;
    default:
      draft.variables.set(change.id, { ...variable, [change.field]: change.before });
  }
}
