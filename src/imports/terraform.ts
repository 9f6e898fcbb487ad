import { hclString } from '../exec/tfvars.js';
import type { SetDocument } from './documents.js';

/**
 * Sets as Terraform configuration for the `tfe` provider: each set, its variables and its
 * assignments as resources, with `import` blocks naming what already exists (by the ids the
 * provider's importers take), so that `terraform plan` adopts the sets instead of creating
 * them. A sensitive value becomes a variable the configuration declares, set by whoever plans.
 */

/** A set as `renderTerraform` needs it: its document and the ids its resources import. */
export interface ExportedSet {
  document: SetDocument;
  id: string;
  /** Variable ids by `category/key`. */
  variableIds: ReadonlyMap<string, string>;
  /** Project ids by name (the owning project and the assigned ones). */
  projectIds: ReadonlyMap<string, string>;
}

/** Terraform names: lower-case letters, digits and `_`, starting with a letter, each used once. */
class Names {
  private readonly taken = new Set<string>();
  of(prefix: string, text: string): string {
    const base = `${prefix}_${text.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`.replace(/_+$/, '');
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}_${n}`;
    this.taken.add(name);
    return name;
  }
}

const block = (head: string, lines: string[]) => `${head} {\n${lines.map((line) => `  ${line}\n`).join('')}}\n`;
const q = hclString;

export function renderTerraform(organization: string, sets: readonly ExportedSet[]): string {
  const names = new Names();
  const out: string[] = [block('terraform', ['required_providers {', '  tfe = { source = "hashicorp/tfe" }', '}'])];
  const workspaces = new Map<string, string>();
  const projects = new Map<string, string>();
  const projectRef = (name: string) => {
    if (!projects.has(name)) {
      const ref = names.of('p', name);
      projects.set(name, ref);
      out.push(
        block(`data "tfe_project" "${ref}"`, [`name         = ${q(name)}`, `organization = ${q(organization)}`]),
      );
    }
    return `data.tfe_project.${projects.get(name)!}.id`;
  };
  const workspaceRef = (name: string) => {
    if (!workspaces.has(name)) {
      const ref = names.of('w', name);
      workspaces.set(name, ref);
      out.push(
        block(`data "tfe_workspace" "${ref}"`, [`name         = ${q(name)}`, `organization = ${q(organization)}`]),
      );
    }
    return `data.tfe_workspace.${workspaces.get(name)!}.id`;
  };

  for (const { document: set, id, variableIds, projectIds } of sets) {
    const ref = names.of('s', set.name);
    const attributes = [
      `name         = ${q(set.name)}`,
      `description  = ${q(set.description)}`,
      `global       = ${set.global}`,
      `priority     = ${set.priority}`,
    ];
    attributes.push(`organization = ${q(organization)}`);
    if (set.project !== null) attributes.push(`parent_project_id = ${projectRef(set.project)}`);
    out.push(block(`resource "tfe_variable_set" "${ref}"`, attributes));
    out.push(block('import', [`to = tfe_variable_set.${ref}`, `id = ${q(id)}`]));

    for (const variable of set.variables) {
      const vref = names.of('v', `${set.name}_${variable.category}_${variable.key}`);
      let value: string;
      if (variable.sensitive) {
        const input = names.of('sensitive', `${set.name}_${variable.key}`);
        out.push(
          block(`variable "${input}"`, [
            'type      = string',
            'sensitive = true',
            `description = ${q(`the value of ${variable.key} in the variable set ${set.name}`)}`,
          ]),
        );
        value = `var.${input}`;
      } else {
        value = q(variable.value ?? '');
      }
      const lines = [
        `key             = ${q(variable.key)}`,
        `value           = ${value}`,
        `category        = ${q(variable.category)}`,
      ];
      lines.push(
        `description     = ${q(variable.description)}`,
        `hcl             = ${variable.hcl}`,
        `sensitive       = ${variable.sensitive}`,
      );
      lines.push(`variable_set_id = tfe_variable_set.${ref}.id`);
      out.push(block(`resource "tfe_variable" "${vref}"`, lines));
      const variableId = variableIds.get(`${variable.category}/${variable.key}`);
      if (variableId !== undefined)
        out.push(block('import', [`to = tfe_variable.${vref}`, `id = ${q(`${organization}/${id}/${variableId}`)}`]));
    }

    for (const workspace of set.workspaces) {
      const aref = names.of('ws', `${set.name}_${workspace}`);
      out.push(
        block(`resource "tfe_workspace_variable_set" "${aref}"`, [
          `variable_set_id = tfe_variable_set.${ref}.id`,
          `workspace_id    = ${workspaceRef(workspace)}`,
        ]),
      );
      out.push(
        block('import', [
          `to = tfe_workspace_variable_set.${aref}`,
          `id = ${q(`${organization}/${workspace}/${set.name}`)}`,
        ]),
      );
    }
    for (const project of set.projects) {
      const aref = names.of('pr', `${set.name}_${project}`);
      out.push(
        block(`resource "tfe_project_variable_set" "${aref}"`, [
          `variable_set_id = tfe_variable_set.${ref}.id`,
          `project_id      = ${projectRef(project)}`,
        ]),
      );
      const projectId = projectIds.get(project);
      if (projectId !== undefined)
        out.push(
          block('import', [
            `to = tfe_project_variable_set.${aref}`,
            `id = ${q(`${organization}/${projectId}/${set.name}`)}`,
          ]),
        );
    }
  }
  return out.join('\n');
}
