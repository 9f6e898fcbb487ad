import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DOCUMENT_SUFFIX, normalDocument, type SetDocument, type VariableDocument } from './documents.js';

/**
 * What `varsetd import` reads before it writes anything: an organization's projects,
 * workspaces, variable sets and workspace variables, by name, from an HCP-shaped API (HCP
 * Terraform, Terraform Enterprise, another varsetd: go-tfe's paths and JSON:API pages) or
 * from the documents of `varsetd export`. A sensitive value comes only from a varsetd source,
 * to its site-admin token, when asked (`includeSensitive`): then it is held in memory, in the
 * variable's `value`, and nowhere else.
 */
export interface SourceOrganization {
  projects: string[];
  /** Each workspace with its project and tag names (go-tfe's `tag-names`; none from an export). */
  workspaces: { name: string; project: string | null; tags: string[] }[];
  sets: SetDocument[];
  workspaceVariables: { workspace: string; variables: VariableDocument[] }[];
  /** What the source holds that cannot be imported, and why. */
  skipped: { what: string; why: string }[];
}

/** The source answered an error (its HTTP status, and the detail of its JSON:API error), or something that is not what its API gives. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly detail?: string,
  ) {
    super(message);
  }
}

export interface ApiSource {
  url: string;
  token: string;
  organization: string;
  /** The page size asked for (the source may give fewer). */
  pageSize: number;
  /** Read the sensitive values too: a varsetd source gives them to its site-admin token. */
  includeSensitive?: boolean;
  /** Follow the source's redirects (the command line does); with false, a redirect is an answer the source refused with. */
  followRedirects?: boolean;
  /** Milliseconds each answer may take; no limit unless set. */
  timeoutMs?: number;
  /** Milliseconds the source's 429s may make the whole read wait (MAX_RETRIES waits of up to MAX_WAIT_MS unless set). */
  rateLimitWaitMs?: number;
}

const MAX_RETRIES = 8;
const MAX_WAIT_MS = 120_000;

/** The wait a 429 asks for: Retry-After in seconds or as an HTTP date; a second when it says neither. */
function retryAfterMs(header: string | null): number {
  if (header === null) return 1_000;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1_000 : Date.parse(header) - Date.now();
  return Math.min(MAX_WAIT_MS, Math.max(0, Number.isFinite(ms) ? ms : 1_000));
}

/** The API's base: `--from https://app.terraform.io` and `--from https://app.terraform.io/api/v2` alike. */
const apiBase = (url: string) => `${url.replace(/\/+$/, '').replace(/\/api\/v2$/, '')}/api/v2`;

/** A JSON:API resource as a source answers it: nothing in it is trusted to be there. */
interface Resource {
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: unknown } | undefined>;
}

/** A JSON:API document as a source answers it. */
interface SourceDocument {
  data?: unknown;
  meta?: { pagination?: Record<string, unknown> };
}

/** The detail (or title) of a JSON:API error answer's first error, when it has one: an error says what was refused, never a value. */
async function errorDetail(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { errors?: { detail?: unknown; title?: unknown }[] } | null;
    const first = body?.errors?.[0];
    const said = first?.detail ?? first?.title;
    return typeof said === 'string' ? said.slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

class ApiReader {
  /** What the source's 429s have made the read wait so far. */
  private waitedMs = 0;

  constructor(private readonly source: ApiSource) {}

  async get(pathAndQuery: string): Promise<SourceDocument | null> {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${apiBase(this.source.url)}${pathAndQuery}`, {
        headers: { authorization: `Bearer ${this.source.token}`, accept: 'application/vnd.api+json' },
        redirect: this.source.followRedirects === false ? 'manual' : 'follow',
        ...(this.source.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(this.source.timeoutMs) }),
      }).catch((error: unknown) => {
        throw new SourceError(
          `${this.source.url} cannot be reached: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
        );
      });
      if (response.status === 429 && attempt < MAX_RETRIES) {
        await response.body?.cancel();
        const wait = retryAfterMs(response.headers.get('retry-after'));
        const budget = this.source.rateLimitWaitMs;
        if (budget !== undefined && this.waitedMs + wait > budget)
          throw new SourceError(
            `the source limits the rate of requests (it asks to wait ${Math.ceil(wait / 1000)} s more): try again later, or import with the command line, which waits`,
            429,
          );
        this.waitedMs += wait;
        await sleep(wait);
        continue;
      }
      if (!response.ok) {
        const detail = await errorDetail(response);
        throw new SourceError(
          `the source answered ${response.status} to GET ${pathAndQuery.split('?')[0]}`,
          response.status,
          detail,
        );
      }
      try {
        return (await response.json()) as SourceDocument | null;
      } catch {
        throw new SourceError(`the source answered GET ${pathAndQuery.split('?')[0]} with something that is not JSON`);
      }
    }
  }

  /** Every resource of a list, page after page, as `meta.pagination` says (a list without it is one page). */
  async all(listPath: string): Promise<Resource[]> {
    const all: Resource[] = [];
    for (let number = 1; ; number++) {
      const separator = listPath.includes('?') ? '&' : '?';
      const document = await this.get(
        `${listPath}${separator}page%5Bnumber%5D=${number}&page%5Bsize%5D=${this.source.pageSize}`,
      );
      if (!Array.isArray(document?.data))
        throw new SourceError(`the source answered GET ${listPath.split('?')[0]} without a list`);
      all.push(...(document.data as Resource[]));
      const next = document.meta?.pagination?.['next-page'];
      if (typeof next !== 'number' || next <= number || document.data.length === 0) return all;
    }
  }
}

/** A to-one relationship's resource identifier, when there is one. */
function one(relationship: { data?: unknown } | undefined): { type?: unknown; id?: string } | undefined {
  const data = relationship?.data;
  return typeof data === 'object' && data !== null ? data : undefined;
}

const ids = (relationship: { data?: unknown } | undefined): string[] =>
  Array.isArray(relationship?.data) ? (relationship.data as { id: string }[]).map((r) => r.id) : [];

function variableOf(resource: Resource): VariableDocument {
  const a = resource.attributes ?? {};
  const sensitive = a.sensitive === true;
  return {
    key: String(a.key),
    category: a.category === 'env' ? 'env' : 'terraform',
    hcl: a.hcl === true,
    sensitive,
    description: typeof a.description === 'string' ? a.description : '',
    ...(sensitive || typeof a.value !== 'string' ? {} : { value: a.value }),
  };
}

/**
 * The sensitive values of a set or workspace of a varsetd source (`GET /varsets/:id/sensitive-values`,
 * `GET /workspaces/:id/sensitive-values`), by `category/key`. A refusal is told as what it means.
 */
async function sensitiveValues(
  api: ApiReader,
  kind: 'varsets' | 'workspaces',
  id: string,
): Promise<Map<string, string>> {
  let document: SourceDocument | null;
  try {
    document = await api.get(`/${kind}/${encodeURIComponent(id)}/sensitive-values`);
  } catch (error) {
    if (!(error instanceof SourceError) || error.status === undefined) throw error;
    const asked = `GET /${kind}/:id/sensitive-values`;
    if (error.status === 401 || error.status === 403)
      throw new SourceError(
        `--include-sensitive: the source refused its sensitive values (${error.status} to ${asked}${error.detail ? `: ${error.detail}` : ''}); a varsetd source gives them to its site-admin token only`,
      );
    if (error.status === 404 || error.status === 405)
      throw new SourceError(
        `--include-sensitive: the source has no sensitive values to give (${error.status} to ${asked}); only a varsetd server gives them, to its site-admin token`,
      );
    throw error;
  }
  if (!Array.isArray(document?.data))
    throw new SourceError(`the source answered GET /${kind}/:id/sensitive-values without a list`);
  const values = new Map<string, string>();
  for (const resource of document.data as Resource[]) {
    const a = resource.attributes ?? {};
    if (typeof a.value === 'string') values.set(`${String(a.category)}/${String(a.key)}`, a.value);
  }
  return values;
}

/** The variables with the sensitive values read from the source (held in memory only), when it was asked for them. */
async function withSensitiveValues(
  api: ApiReader,
  source: ApiSource,
  kind: 'varsets' | 'workspaces',
  id: string,
  variables: VariableDocument[],
): Promise<VariableDocument[]> {
  if (!source.includeSensitive || !variables.some((v) => v.sensitive)) return variables;
  const values = await sensitiveValues(api, kind, id);
  return variables.map((v) => {
    const value = v.sensitive ? values.get(`${v.category}/${v.key}`) : undefined;
    return value === undefined ? v : { ...v, value };
  });
}

export async function readApiSource(source: ApiSource): Promise<SourceOrganization> {
  const api = new ApiReader(source);
  const org = encodeURIComponent(source.organization);
  const skipped: SourceOrganization['skipped'] = [];
  const projects = new Map<string, string>(
    (await api.all(`/organizations/${org}/projects`)).map((p) => [p.id, String(p.attributes?.name)]),
  );
  const workspaceRows = await api.all(`/organizations/${org}/workspaces`);
  const workspaces = new Map<string, { name: string; project: string | null; tags: string[] }>(
    workspaceRows.map((w) => {
      const projectId = one(w.relationships?.project)?.id;
      const tags = w.attributes?.['tag-names'];
      return [
        w.id,
        {
          name: String(w.attributes?.name),
          project: projectId === undefined ? null : (projects.get(projectId) ?? null),
          tags: Array.isArray(tags) ? [...new Set(tags.filter((t): t is string => typeof t === 'string'))].sort() : [],
        },
      ];
    }),
  );
  const named = (kind: 'workspace' | 'project', id: string, setName: string): string | undefined => {
    const name = kind === 'workspace' ? workspaces.get(id)?.name : projects.get(id);
    if (name === undefined)
      skipped.push({
        what: `the assignment of set ${setName} to ${kind} ${id}`,
        why: `the source lists no such ${kind} of the organization`,
      });
    return name;
  };

  const sets: SetDocument[] = [];
  for (const resource of await api.all(`/organizations/${org}/varsets`)) {
    const a = resource.attributes ?? {};
    const name = String(a.name);
    const parent = one(resource.relationships?.parent);
    const variables = (await api.all(`/varsets/${encodeURIComponent(resource.id)}/relationships/vars`)).map(variableOf);
    const document = normalDocument({
      name,
      description: typeof a.description === 'string' ? a.description : '',
      global: a.global === true,
      priority: a.priority === true,
      project:
        parent?.type === 'projects' && parent.id !== undefined ? (named('project', parent.id, name) ?? null) : null,
      workspaces: ids(resource.relationships?.workspaces).flatMap((id) => named('workspace', id, name) ?? []),
      projects: ids(resource.relationships?.projects).flatMap((id) => named('project', id, name) ?? []),
      variables,
    });
    // normalDocument leaves sensitive values out; those asked for are put back after it.
    sets.push({
      ...document,
      variables: await withSensitiveValues(api, source, 'varsets', resource.id, document.variables),
    });
  }

  const workspaceVariables: SourceOrganization['workspaceVariables'] = [];
  for (const [id, workspace] of workspaces) {
    // HCP Terraform lists a workspace's variables on one page, without page parameters.
    const listed = await api.get(`/workspaces/${encodeURIComponent(id)}/vars`);
    if (!Array.isArray(listed?.data))
      throw new SourceError('the source answered GET /workspaces/:id/vars without a list');
    const variables = await withSensitiveValues(
      api,
      source,
      'workspaces',
      id,
      (listed.data as Resource[]).map(variableOf),
    );
    if (variables.length > 0) workspaceVariables.push({ workspace: workspace.name, variables });
  }
  return { projects: [...projects.values()], workspaces: [...workspaces.values()], sets, workspaceVariables, skipped };
}

/** Whether `parsed` has the shape of a set's document (the members an import reads). */
function isSetDocument(parsed: unknown): parsed is SetDocument {
  const d = parsed as Partial<SetDocument> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.name === 'string' &&
    Array.isArray(d.variables) &&
    Array.isArray(d.workspaces) &&
    Array.isArray(d.projects)
  );
}

/**
 * The sets of `varsetd export --format json`: a folder of `--out DIR` (a document per file), or
 * one file holding the array of every set's document (what it prints without `--out`, and the
 * API's export download).
 */
export async function readExportSource(from: string): Promise<SourceOrganization> {
  if (!(await stat(from)).isDirectory()) return readExportFile(from);
  const files = (await readdir(from)).filter((file) => file.endsWith(DOCUMENT_SUFFIX)).sort();
  const sets: SetDocument[] = [];
  for (const file of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path.join(from, file), 'utf8'));
    } catch (error) {
      throw new SourceError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!isSetDocument(parsed)) throw new SourceError(`${file} is not a set's document of varsetd export`);
    sets.push(parsed);
  }
  return readDocumentsSource(sets);
}

async function readExportFile(file: string): Promise<SourceOrganization> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SourceError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed)) throw new SourceError(`${file} is not an array of the documents of varsetd export`);
  parsed.forEach((document, i) => {
    if (!isSetDocument(document)) throw new SourceError(`${file}: item ${i} is not a set's document of varsetd export`);
  });
  return readDocumentsSource(parsed as SetDocument[]);
}

/** Sets given as their documents; the projects and workspaces they name. A sensitive value in a document is left out. */
export function readDocumentsSource(documents: readonly SetDocument[]): SourceOrganization {
  const sets = documents.map(normalDocument);
  const projects = new Set(sets.flatMap((s) => [...s.projects, ...(s.project === null ? [] : [s.project])]));
  const workspaces = [...new Set(sets.flatMap((s) => s.workspaces))].map((name) => ({ name, project: null, tags: [] }));
  return { projects: [...projects], workspaces, sets, workspaceVariables: [], skipped: [] };
}
