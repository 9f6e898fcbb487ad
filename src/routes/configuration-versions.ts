import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { badRequest } from '../jsonapi/errors.js';
import { parseInclude, parsePage } from '../jsonapi/query.js';
import { Document, IncludeQuery, ListDocument, NoContent, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { MAX_ARCHIVE_BYTES } from '../configuration-versions/archive.js';
import { ConfigurationVersionBody, ConfigurationVersionResource } from '../configuration-versions/schemas.js';
import { serializeConfigurationVersion } from '../configuration-versions/serialize.js';
import {
  completeUpload,
  createConfigurationVersion,
  getConfigurationVersion,
  getConfigurationVersionArchive,
  archiveConfigurationVersion,
  listWorkspaceConfigurationVersions,
  openUpload,
  rejectOversizedUpload,
} from '../configuration-versions/service.js';
import { tagged } from '../jsonapi/tags.js';

export interface ConfigurationVersionRoutesOptions {
  /** Absolute base URL of the server; when unset, upload URLs are built from the request's protocol and Host header. */
  publicUrl?: string | undefined;
}

const IdParams = Type.Object({ id: Type.String() });
/**
 * HCP Terraform includes a version's VCS ingress attributes; a version uploaded through the
 * API, as every version here is, has none, so including them adds nothing. (HCP's `run`
 * include is not offered: a version can have any number of runs here.)
 */
const CV_INCLUDES = ['ingress_attributes'] as const;

export const configurationVersionRoutes: FastifyPluginAsyncTypebox<ConfigurationVersionRoutesOptions> = async (
  api,
  options,
) => {
  api.addHook('onRoute', tagged('configurationVersions'));
  const baseUrl = (request: FastifyRequest) =>
    options.publicUrl ?? `${request.protocol}://${request.host || 'localhost'}`;

  api.post(
    '/workspaces/:id/configuration-versions',
    {
      schema: {
        params: IdParams,
        body: ConfigurationVersionBody,
        response: Responses({ 201: Document(ConfigurationVersionResource) }),
      },
    },
    async (request, reply) => {
      const attributes = request.body?.data.attributes;
      const { cv, uploadSecret } = await createConfigurationVersion(contextOf(request), request.params.id, {
        autoQueueRuns: attributes?.['auto-queue-runs'] ?? undefined,
        speculative: attributes?.speculative ?? undefined,
        provisional: attributes?.provisional ?? undefined,
      });
      const uploadUrl = `${baseUrl(request)}${API_PREFIX}/uploads/${uploadSecret}`;
      return reply.code(201).send({ data: serializeConfigurationVersion(cv, uploadUrl) });
    },
  );

  api.get(
    '/workspaces/:id/configuration-versions',
    {
      schema: {
        params: IdParams,
        querystring: Query({ ...PageQuery, ...IncludeQuery(CV_INCLUDES) }),
        response: Responses({ 200: ListDocument(ConfigurationVersionResource) }),
      },
    },
    async (request) => {
      parseInclude(request.query, CV_INCLUDES);
      const page = parsePage(request.query);
      const { rows, total } = await listWorkspaceConfigurationVersions(contextOf(request), request.params.id, page);
      const path = `${API_PREFIX}/workspaces/${encodeURIComponent(request.params.id)}/configuration-versions`;
      return listDocument(
        path,
        request.query,
        page,
        total,
        rows.map((cv) => serializeConfigurationVersion(cv)),
      );
    },
  );

  api.get(
    '/configuration-versions/:id',
    {
      schema: {
        params: IdParams,
        querystring: Query(IncludeQuery(CV_INCLUDES)),
        response: Responses({ 200: Document(ConfigurationVersionResource) }),
      },
    },
    async (request) => {
      parseInclude(request.query, CV_INCLUDES);
      return {
        data: serializeConfigurationVersion(await getConfigurationVersion(contextOf(request), request.params.id)),
      };
    },
  );

  api.get(
    '/configuration-versions/:id/download',
    {
      schema: {
        params: IdParams,
        response: Responses({
          200: Type.Unknown({ description: 'the archive as uploaded (application/octet-stream)' }),
        }),
      },
    },
    async (request, reply) => {
      const archive = await getConfigurationVersionArchive(contextOf(request), request.params.id);
      return reply.type('application/octet-stream').send(archive);
    },
  );

  api.post(
    '/configuration-versions/:id/actions/archive',
    { schema: { params: IdParams, response: Responses({ 202: NoContent }) } },
    async (request, reply) => {
      await archiveConfigurationVersion(contextOf(request), request.params.id);
      // No body, as HCP Terraform answers (null would be sent as the text "null").
      return reply
        .code(202)
        .removeHeader('content-type')
        .send(undefined as unknown as null);
    },
  );

  await api.register(uploadRoutes);
};

/**
 * The upload URL. Its own scope takes any body as a raw stream (clients send
 * application/octet-stream, or nothing at all), leaving the JSON-only parsing of every
 * other route alone. The credential is checked before the body is read.
 */
const uploadRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const schema = { params: Type.Object({ secret: Type.String() }), response: Responses({ 200: NoContent }) };
  api.put('/uploads/:secret', { config: { public: true }, schema }, async (request, reply) => {
    const store = request.server.store;
    const upload = await openUpload(store, request.params.secret);
    const archive = await readBody(request, MAX_ARCHIVE_BYTES);
    if (archive === null) return rejectOversizedUpload(store, upload);
    await completeUpload(store, upload, archive, request.id);
    // An empty body, as HCP Terraform answers an upload (null would be sent as the text "null").
    return reply
      .code(200)
      .removeHeader('content-type')
      .send(undefined as unknown as null);
  });
};

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
    stream
      .on('data', onData)
      .once('end', onEnd)
      .once('error', () => reject(badRequest('the upload was interrupted')));
  });
}
