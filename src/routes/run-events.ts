import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { includedComments } from './includes.js';
import { API_PREFIX, listDocument } from '../jsonapi/document.js';
import { parseInclude, parsePage } from '../jsonapi/query.js';
import { Document, IncludeQuery, ListDocument, PageQuery, Query, Responses } from '../jsonapi/schemas.js';
import { RUN_EVENT_INCLUDES, type RunEventWithComment } from '../run-events/model.js';
import { RunEventResource } from '../run-events/schemas.js';
import { serializeRunEvent } from '../run-events/serialize.js';
import { getRunEvent, listEventsOfRun } from '../run-events/service.js';
import { tagged } from '../jsonapi/tags.js';

const IdParams = Type.Object({ id: Type.String() });

/** `included` for the events: their comments when asked for; present only when `include` names something. */
function included(events: RunEventWithComment[], include: Set<(typeof RUN_EVENT_INCLUDES)[number]>) {
  if (include.size === 0) return undefined;
  return include.has('comment') ? includedComments(events.flatMap((e) => (e.comment ? [e.comment] : []))) : [];
}

export const runEventRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('runs'));
  api.get(
    '/runs/:id/run-events',
    {
      schema: {
        params: IdParams,
        querystring: Query({ ...PageQuery, ...IncludeQuery(RUN_EVENT_INCLUDES) }),
        response: Responses({ 200: ListDocument(RunEventResource) }),
      },
    },
    async (request) => {
      const include = parseInclude(request.query, RUN_EVENT_INCLUDES);
      const page = parsePage(request.query);
      const { rows, total } = await listEventsOfRun(contextOf(request), request.params.id, page);
      const path = `${API_PREFIX}/runs/${encodeURIComponent(request.params.id)}/run-events`;
      return listDocument(path, request.query, page, total, rows.map(serializeRunEvent), included(rows, include));
    },
  );

  api.get(
    '/run-events/:id',
    {
      schema: {
        params: IdParams,
        querystring: Query(IncludeQuery(RUN_EVENT_INCLUDES)),
        response: Responses({ 200: Document(RunEventResource) }),
      },
    },
    async (request) => {
      const include = parseInclude(request.query, RUN_EVENT_INCLUDES);
      const event = await getRunEvent(contextOf(request), request.params.id);
      const extra = included([event], include);
      return { data: serializeRunEvent(event), ...(extra ? { included: extra } : {}) };
    },
  );
};
