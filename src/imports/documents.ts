import { compareCodePoints } from '../common/code-points.js';
import type { VarsetView } from '../varsets/model.js';

/**
 * A variable set as `varsetd export --format json` writes it and `varsetd import --from DIR`
 * reads it: names instead of ids, members in a fixed order, lists sorted, and no sensitive
 * value (only that the variable is sensitive), so that two exports of the same sets are the
 * same bytes and a change reads well in a diff.
 */
export interface VariableDocument {
  key: string;
  category: 'terraform' | 'env';
  hcl: boolean;
  sensitive: boolean;
  description: string;
  /** Absent for a sensitive variable, except in memory when `varsetd import --include-sensitive` read it from its source. */
  value?: string;
}

export interface SetDocument {
  name: string;
  description: string;
  global: boolean;
  priority: boolean;
  /** The owning project's name; null for a set the organization owns. */
  project: string | null;
  workspaces: string[];
  projects: string[];
  variables: VariableDocument[];
}

const sorted = (names: string[]) => [...names].sort(compareCodePoints);

/** Variables in the order documents list them: Terraform ones first, then by key. */
export function byCategoryAndKey(a: { category: string; key: string }, b: { category: string; key: string }): number {
  if (a.category !== b.category) return a.category === 'terraform' ? -1 : 1;
  return compareCodePoints(a.key, b.key);
}

/** A document with its members in their fixed order, whatever order they were given in. */
export function normalDocument(document: SetDocument): SetDocument {
  return {
    name: document.name,
    description: document.description,
    global: document.global,
    priority: document.priority,
    project: document.project,
    workspaces: sorted(document.workspaces),
    projects: sorted(document.projects),
    variables: [...document.variables].sort(byCategoryAndKey).map((v) => ({
      key: v.key,
      category: v.category,
      hcl: v.hcl,
      sensitive: v.sensitive,
      description: v.description,
      ...(v.sensitive || v.value === undefined ? {} : { value: v.value }),
    })),
  };
}

/** The document of a set read whole (pageOfOrganizationVarsets), its projects named by `projectNames`. */
export function documentOfView(view: VarsetView, projectNames: ReadonlyMap<string, string>): SetDocument {
  const nameOf = (id: string) => projectNames.get(id) ?? id;
  return normalDocument({
    name: view.varset.name,
    description: view.varset.description,
    global: view.varset.global,
    priority: view.varset.priority,
    project: view.varset.project_id === null ? null : nameOf(view.varset.project_id),
    workspaces: view.workspaces.map((w) => w.row?.name ?? w.id),
    projects: view.projects.map((p) => p.row?.name ?? nameOf(p.id)),
    variables: view.variables.map(({ row }) => {
      const v = row!;
      return {
        key: v.key,
        category: v.category,
        hcl: v.hcl,
        sensitive: v.sensitive,
        description: v.description,
        value: v.value,
      };
    }),
  });
}

/** A document as a file's text: two-space indented JSON ending with a line break. */
export const documentText = (document: SetDocument) => `${JSON.stringify(normalDocument(document), null, 2)}\n`;

/** The file a set's document is written to: its name with what a file name cannot hold percent-encoded. */
export const documentFileName = (name: string) => `${encodeURIComponent(name).replace(/^\./, '%2E')}${DOCUMENT_SUFFIX}`;

export const DOCUMENT_SUFFIX = '.varset.json';
