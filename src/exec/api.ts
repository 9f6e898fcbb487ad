import { API_PREFIX } from '../common/api-prefix.js';
import type { Requester } from './http.js';
import type { Server } from './credentials.js';

/** The varsetd (HCP Terraform) API calls `varsetd exec` makes. */

export interface InjectedVariable {
  key: string;
  category: 'terraform' | 'env';
  value: string | null;
  hcl: boolean;
  sensitive: boolean;
  /** A sensitive variable with no value yet (`value-needed`, varsetd's own): no run may use it. */
  valueNeeded?: boolean;
}

/** A variable set that gives a run at least one of its values, and the version of the set they are of (null: none yet). */
export interface SetUsed {
  name: string;
  version: number | null;
}

export class ApiCallError extends Error {}

export class VarsetdApi {
  constructor(
    private readonly server: Server,
    private readonly request: Requester,
  ) {}

  /** The answer's document, of the shape `T` the route documents; nothing when the answer is empty. */
  private async call<T = undefined>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.server.address}${API_PREFIX}${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.server.token}`,
      accept: 'application/vnd.api+json',
    };
    if (body !== undefined) headers['content-type'] = 'application/vnd.api+json';
    let response;
    try {
      response = await this.request(
        method,
        url,
        headers,
        body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      );
    } catch (error) {
      throw new ApiCallError(`${method} ${url} failed: ${(error as Error).message}`);
    }
    if (response.status !== 200 && response.status !== 201)
      throw new ApiCallError(`${method} ${url} answered ${response.status}${describeErrors(response.body)}`);
    return (response.body ? JSON.parse(response.body) : undefined) as T;
  }

  async workspaceId(organization: string, workspace: string): Promise<string> {
    const doc = await this.call<Created>(
      'GET',
      `/organizations/${encodeURIComponent(organization)}/workspaces/${encodeURIComponent(workspace)}`,
    );
    return doc.data.id;
  }

  /** The variables a run of the workspace would get now, sensitive values left out, and the sets they come from (for --dry-run). */
  async workspaceVariables(workspaceId: string): Promise<{ variables: InjectedVariable[]; sets: SetUsed[] }> {
    const doc = await this.call<EffectiveDocument>('GET', `/workspaces/${workspaceId}/effective-variables`);
    return { variables: variablesOf(doc), sets: setsOf(doc) };
  }

  /** The sets a run's values come from, each with the version the run got. */
  async runSets(runId: string): Promise<SetUsed[]> {
    return setsOf(await this.call<EffectiveDocument>('GET', `/runs/${runId}/effective-variables`));
  }

  /** A configuration version with the archive uploaded to it; returns its id. */
  async uploadConfiguration(workspaceId: string, archive: Buffer): Promise<string> {
    const doc = await this.call<Created<{ 'upload-url': string }>>(
      'POST',
      `/workspaces/${workspaceId}/configuration-versions`,
      {
        data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
      },
    );
    const uploadUrl = doc.data.attributes['upload-url'];
    const response = await this.request('PUT', uploadUrl, { 'content-type': 'application/octet-stream' }, archive);
    if (response.status !== 200)
      throw new ApiCallError(
        `the upload of the configuration answered ${response.status}${describeErrors(response.body)}`,
      );
    return doc.data.id;
  }

  async createRun(workspaceId: string, configurationVersionId: string, message: string | undefined): Promise<string> {
    const doc = await this.call<Created>('POST', '/runs', {
      data: {
        type: 'runs',
        attributes: message === undefined ? {} : { message },
        relationships: {
          workspace: { data: { type: 'workspaces', id: workspaceId } },
          'configuration-version': { data: { type: 'configuration-versions', id: configurationVersionId } },
        },
      },
    });
    return doc.data.id;
  }

  async openedVariables(runId: string): Promise<InjectedVariable[]> {
    return variablesOf(await this.call<VariablesDocument>('GET', `/runs/${runId}/opened-variables`));
  }

  async startRun(runId: string): Promise<void> {
    await this.call('POST', `/runs/${runId}/actions/start`);
  }

  async finishRun(runId: string, exitCode: number): Promise<void> {
    await this.call('POST', `/runs/${runId}/actions/finish`, { 'exit-code': exitCode });
  }

  /** A workload identity token of the run for a target and phase; its value is never logged nor shown. */
  async workloadIdentityToken(
    runId: string,
    phase: 'plan' | 'apply',
    target: string,
    alias: string | null,
  ): Promise<string> {
    const body = alias === null ? { phase, target } : { phase, target, alias };
    const doc = await this.call<Created<{ token: string }>>(
      'POST',
      `/runs/${runId}/actions/workload-identity-token`,
      body,
    );
    return doc.data.attributes.token;
  }

  async comment(runId: string, body: string): Promise<void> {
    await this.call('POST', `/runs/${runId}/comments`, { data: { type: 'comments', attributes: { body } } });
  }
}

function describeErrors(body: string): string {
  try {
    const errors = (JSON.parse(body) as { errors?: { title?: string; detail?: string }[] }).errors ?? [];
    return errors.length ? `: ${errors.map((e) => e.detail ?? e.title).join('; ')}` : '';
  } catch {
    return '';
  }
}

/** The variables of an effective-variables document, as they are injected. */
function variablesOf(doc: VariablesDocument): InjectedVariable[] {
  return doc.data.map(({ attributes: a }) => ({
    key: a.key,
    category: a.category,
    value: a.value,
    hcl: a.hcl,
    sensitive: a.sensitive,
    ...(a['value-needed'] === true ? { valueNeeded: true } : {}),
  }));
}

/** A document of one resource, by its id and the attributes read of it. */
type Created<A = unknown> = { data: { id: string; attributes: A } };

/** What exec reads of a run's or a workspace's variables, as they are injected. */
type VariablesDocument = {
  data: { attributes: Omit<InjectedVariable, 'valueNeeded'> & { 'value-needed'?: boolean } }[];
};

type EffectiveDocument = VariablesDocument & {
  data: { attributes: { source: { varset?: { id: string; name: string; version?: number | null } } } }[];
};

/** The sets the winning values of an effective-variables document come from, by name. */
function setsOf(doc: EffectiveDocument): SetUsed[] {
  const sets = new Map<string, SetUsed>();
  for (const { attributes } of doc.data) {
    const set = attributes.source.varset;
    if (set) sets.set(set.id, { name: set.name, version: set.version ?? null });
  }
  return [...sets.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
