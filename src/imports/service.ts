import type { Context } from '../auth/context.js';
import { can } from '../auth/decisions.js';
import { varsetListScope } from '../auth/list-scopes.js';
import { Forbidden, Invalid, Unprocessable } from '../common/errors.js';
import { everyPage } from '../common/page.js';
import { getOrganization } from '../organizations/service.js';
import { listOrganizationProjects } from '../projects/service.js';
import { pageOfOrganizationVarsets } from '../varsets/service.js';
import { documentOfView, type SetDocument } from './documents.js';
import { renderTerraform } from './terraform.js';
import { allowedSource, shownSource } from './model.js';
import { runImport, type ImportReport } from './run.js';
import { readApiSource, readDocumentsSource, SourceError, type SourceOrganization } from './source.js';

export { runImport, type ImportOptions, type ImportReport, type ItemReport } from './run.js';
export {
  readApiSource,
  readDocumentsSource,
  readExportSource,
  SourceError,
  type SourceOrganization,
} from './source.js';
export { shownSource } from './model.js';
export { documentFileName, documentText, DOCUMENT_SUFFIX, normalDocument, type SetDocument } from './documents.js';

/**
 * An organization's variable sets as `varsetd export` writes them and `varsetd import` reads
 * them back: the documents (no sensitive value, only that a variable is sensitive), and the
 * same sets as Terraform configuration for the tfe provider.
 */
export interface OrganizationExport {
  documents: SetDocument[];
  terraform(): string;
}

/**
 * Reads every set of the organization, whole. The command line reads as the site
 * administrator; through the API, only a subject that may read all of the organization's sets
 * exports them (anyone else who sees the organization is told so: 403).
 */
export async function exportOrganization(ctx: Context, organization: string): Promise<OrganizationExport> {
  const found = await getOrganization(ctx, organization);
  if (varsetListScope(ctx.subject, found.id) !== 'all')
    throw new Forbidden("only a token that may read all of the organization's variable sets exports them");
  const views = await everyPage(async (page) => {
    const { views, total } = await pageOfOrganizationVarsets(ctx, organization, page);
    return { rows: views, total };
  });
  const projects = await everyPage((page) =>
    listOrganizationProjects(ctx, organization, { permitted: [], order: 'name' }, page),
  );
  const projectNames = new Map(projects.map((project) => [project.id, project.name]));
  const documents = views.map((view) => documentOfView(view, projectNames));
  return {
    documents,
    terraform: () => {
      const projectIds = new Map([...projectNames].map(([id, name]) => [name, id]));
      const sets = views.map((view, i) => ({
        document: documents[i]!,
        id: view.varset.id,
        variableIds: new Map(view.variables.map(({ id, row }) => [`${row!.category}/${row!.key}`, id])),
        projectIds,
      }));
      return renderTerraform(found.name, sets);
    },
  };
}

/** Imports into an organization are its owners' (and the site administrator's): anyone else who sees it is told so (403). */
export async function ensureImports(ctx: Context, organization: string): Promise<void> {
  const found = await getOrganization(ctx, organization);
  if (!can(ctx.subject, 'organization:import', { organizationId: found.id }))
    throw new Forbidden("only the organization's owners import into it");
}

/** An import through the API: from the documents of an export uploaded, or from a source the server reads. */
export type ImportRequest =
  | { kind: 'documents'; documents: SetDocument[]; fileName: string | undefined }
  | { kind: 'source'; url: string; token: string; organization: string };

/**
 * Runs an import into `organization` for its owners: a dry run (nothing written) or the import
 * itself. A named source is read only at an origin of `allowedSources`, its redirects not
 * followed; its token is used for this request's reads only. Nothing is written unless all of the
 * source was read.
 */
export async function importIntoOrganization(
  ctx: Context,
  organization: string,
  request: ImportRequest,
  { dryRun, allowedSources }: { dryRun: boolean; allowedSources: readonly string[] },
): Promise<ImportReport> {
  await ensureImports(ctx, organization);
  let source: SourceOrganization;
  let shown: string;
  if (request.kind === 'documents') {
    const names = new Set<string>();
    request.documents.forEach((document, i) => {
      if (names.has(document.name))
        throw new Invalid(`documents[${i}].name`, `two documents name the set ${document.name}`);
      names.add(document.name);
    });
    source = readDocumentsSource(request.documents);
    shown = `uploaded export${request.fileName ? ` ${request.fileName}` : ''}`;
  } else {
    const url = allowedSource(request.url, allowedSources);
    if (typeof url === 'string') throw new Invalid('source.url', `the source's URL ${url}`);
    shown = shownSource(url.toString());
    try {
      source = await readApiSource({
        url: url.toString(),
        token: request.token,
        organization: request.organization,
        pageSize: 100,
        followRedirects: false,
        timeoutMs: SOURCE_TIMEOUT_MS,
        rateLimitWaitMs: SOURCE_RATE_LIMIT_WAIT_MS,
      });
    } catch (error) {
      if (error instanceof SourceError) throw new Unprocessable(`reading ${shown}: ${error.message}`, 'source');
      throw error;
    }
  }
  return runImport(ctx, source, { source: shown, organization, dryRun });
}

/** How long the server waits for each answer of a named source. */
const SOURCE_TIMEOUT_MS = 30_000;
/** How long, in all, a named source's rate limit may hold a request of the API (the command line waits longer). */
const SOURCE_RATE_LIMIT_WAIT_MS = 10_000;
