/**
 * The least a read can cost on a miss with varsetd's data model: a bare Fastify route, in its
 * own process, that compares the bearer header in memory, reads through varsetd's own store
 * functions (a set: its one statement with the variables and relationship ids; a list: its
 * page statement) and renders varsetd's own document, serialized by Fastify. Everything else a
 * request to varsetd does is left out: the token's check against the database, permissions,
 * query checks, the response cache, hooks and logging. The workspace or organization a list
 * belongs to is read once, at start-up.
 *
 *   node --import tsx bench/least-read.ts <config.json>
 *   config: { port, token, dataDir, databaseUrl?, url: the URL of a read scenario (1, 2, 3, 6, 7) }
 */
import Fastify from 'fastify';
import { openStore } from '../src/db/connect.js';
import { listDocument } from '../src/jsonapi/document.js';
import { parseInclude, parsePage, parseSearch, type Query } from '../src/jsonapi/query.js';
import { findOrganizationByName } from '../src/organizations/store.js';
import { VARSET_INCLUDES, type VarsetScope } from '../src/varsets/model.js';
import { listVarsets } from '../src/varsets/list-store.js';
import { varsetsIncluded } from '../src/routes/includes.js';
import { serializeVarset, varsetDocument } from '../src/varsets/serialize.js';
import { findVarsetAtVersion } from '../src/varsets/store.js';
import { completeViews } from '../src/varsets/views.js';
import { findWorkspaceWithOrganization } from '../src/workspaces/store.js';
import { admitted, configFromArguments, stopOnSignals } from './bare.js';

export interface LeastReadConfig {
  port: number;
  token: string;
  dataDir: string;
  databaseUrl?: string;
  url: string;
}

/** The benchmark reads as the admin, who may update every set. */
const options = { permissions: () => ({ 'can-update': true }) };

const config = configFromArguments<LeastReadConfig>('least-read.ts');
const admit = admitted(config.token);
const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
const db = store.db;

const url = new URL(config.url, 'http://localhost');
const query = Object.fromEntries(url.searchParams) as Query;
const include = parseInclude(query, VARSET_INCLUDES);
const [, , , collection, id] = url.pathname.split('/').map(decodeURIComponent);

async function scopeOfList(): Promise<VarsetScope> {
  if (collection === 'workspaces') {
    const found = await findWorkspaceWithOrganization(db, { id: id! });
    if (!found) throw new Error(`no workspace ${id}`);
    return {
      kind: 'workspace',
      organizationId: found.workspace.organization_id,
      projectId: found.workspace.project_id,
      workspaceId: found.workspace.id,
    };
  }
  if (collection !== 'organizations') throw new Error(`no list of sets the least read answers: ${url.pathname}`);
  const found = await findOrganizationByName(db, id!);
  if (!found) throw new Error(`no organization ${id}`);
  return { kind: 'organization', organizationId: found.organization.id, readable: 'all' };
}

async function showDocument(): Promise<unknown> {
  const found = await findVarsetAtVersion(db, id!, include.has('vars'));
  if (!found) throw new Error(`no set ${id}`);
  const [view] = await completeViews(db, [{ varset: found.varset, relations: found.relations! }], include);
  return varsetDocument(view!, options, varsetsIncluded([view!], include));
}

/** The document of the read `config.url` names, read and rendered anew on every call. */
const read =
  collection === 'varsets'
    ? showDocument
    : await (async () => {
        const scope = await scopeOfList();
        const search = parseSearch(query);
        const page = parsePage(query);
        return async () => {
          const { rows, total } = await listVarsets(db, scope, search, page, include.has('vars'));
          const views = await completeViews(db, rows, include);
          return listDocument(
            url.pathname,
            query,
            page,
            total,
            views.map((view) => serializeVarset(view, options)),
            varsetsIncluded(views, include),
          );
        };
      })();

const app = Fastify({ logger: false });
app.get('/*', async (request, reply) => {
  if (!admit(request, reply)) return reply;
  return reply.send(await read());
});

stopOnSignals(() => app.close().then(() => store.close()));
await app.listen({ host: '127.0.0.1', port: config.port });
