import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contextOf } from '../context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { badRequest } from '../jsonapi/errors.js';
import { parsePage, type Query } from '../jsonapi/query.js';
import { MAX_ARCHIVE_BYTES } from './archive.js';
import { serializeConfigurationVersion } from './serialize.js';
import {
  completeUpload,
  createConfigurationVersion,
  getConfigurationVersion,
  getConfigurationVersionArchive,
  listWorkspaceConfigurationVersions,
  openUpload,
  rejectOversizedUpload,
} from './service.js';

export interface ConfigurationVersionRoutesOptions {
  /** Absolute base URL of the server; when unset, upload URLs are built from the request's protocol and Host header. */
  publicUrl?: string | undefined;
}

type IdParams = { Params: { id: string } };

export async function configurationVersionRoutes(api: FastifyInstance, options: ConfigurationVersionRoutesOptions): Promise<void> {
  const baseUrl = (request: FastifyRequest) => options.publicUrl ?? `${request.protocol}://${request.host || 'localhost'}`;

  api.post<IdParams>('/workspaces/:id/configuration-versions', async (request, reply) => {
    const { cv, uploadSecret } = await createConfigurationVersion(contextOf(request), request.params.id, request.body);
    const uploadUrl = `${baseUrl(request)}${API_PREFIX}/uploads/${uploadSecret}`;
    return reply.code(201).send({ data: serializeConfigurationVersion(cv, uploadUrl) });
  });

  api.get<IdParams>('/workspaces/:id/configuration-versions', async (request) => {
    const query = request.query as Query;
    const page = parsePage(query);
    const { rows, total } = await listWorkspaceConfigurationVersions(contextOf(request), request.params.id, page);
    return listDocument(`${API_PREFIX}/workspaces/${encodeURIComponent(request.params.id)}/configuration-versions`, query, page, total, rows.map((cv) => serializeConfigurationVersion(cv)));
  });

  api.get<IdParams>('/configuration-versions/:id', async (request) => {
    return { data: serializeConfigurationVersion(await getConfigurationVersion(contextOf(request), request.params.id)) };
  });

  api.get<IdParams>('/configuration-versions/:id/download', async (request, reply) => {
    const archive = await getConfigurationVersionArchive(contextOf(request), request.params.id);
    return reply.type('application/octet-stream').send(archive);
  });

  await api.register(uploadRoutes);
}

/**
 * The upload URL. Its own scope takes any body as a raw stream (clients send
 * application/octet-stream, or nothing at all), leaving the JSON-only parsing of every
 * other route alone. The credential is checked before the body is read.
 */
async function uploadRoutes(api: FastifyInstance): Promise<void> {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  api.put<{ Params: { secret: string } }>('/uploads/:secret', { config: { public: true } }, async (request, reply) => {
    const store = request.server.store;
    const upload = await openUpload(store, request.params.secret);
    const archive = await readBody(request, MAX_ARCHIVE_BYTES);
    if (archive === null) return rejectOversizedUpload(store, upload);
    await completeUpload(store, upload, archive);
    return reply.code(200).removeHeader('content-type').send();
  });
}

/**
 * The request body, or null when it is larger than `limit`. Past the limit the rest is read
 * and thrown away rather than left unread, so the client receives the 413 answer.
 */
function readBody(request: FastifyRequest, limit: number): Promise<Buffer | null> {
  const stream = request.body as Readable | undefined;
  if (stream === undefined) return Promise.resolve(Buffer.alloc(0));
  if (Number(request.headers['content-length']) > limit) {
    stream.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stream.off('data', onData).off('end', onEnd);
      stream.resume();
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    stream.on('data', onData).once('end', onEnd).once('error', () => reject(badRequest('the upload was interrupted')));
  });
}
