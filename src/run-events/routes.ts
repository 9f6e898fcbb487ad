import type { FastifyInstance } from 'fastify';
import { contextOf } from '../context.js';
import { API_PREFIX, listDocument, type Resource } from '../jsonapi/document.js';
import { parseInclude, parsePage, type Query } from '../jsonapi/query.js';
import { serializeComment } from '../comments/serialize.js';
import { serializeRunEvent } from './serialize.js';
import { getRunEvent, listEventsOfRun } from './service.js';
import type { RunEventWithComment } from './store.js';

type IdParams = { Params: { id: string } };

const INCLUDES = ['actor', 'comment'] as const;

/** `included` for the events: their comments when asked for. An actor is never a user here, so `actor` adds nothing. */
function included(events: RunEventWithComment[], include: Set<(typeof INCLUDES)[number]>): { included?: Resource[] } {
  if (include.size === 0) return {};
  const comments = include.has('comment') ? events.flatMap((e) => (e.comment ? [serializeComment(e.comment)] : [])) : [];
  return { included: comments };
}

export async function runEventRoutes(api: FastifyInstance): Promise<void> {
  api.get<IdParams>('/runs/:id/run-events', async (request) => {
    const query = request.query as Query;
    const include = parseInclude(query, INCLUDES);
    const page = parsePage(query);
    const { rows, total } = await listEventsOfRun(contextOf(request), request.params.id, page);
    const path = `${API_PREFIX}/runs/${encodeURIComponent(request.params.id)}/run-events`;
    return listDocument(path, query, page, total, rows.map(serializeRunEvent), included(rows, include).included);
  });

  api.get<IdParams>('/run-events/:id', async (request) => {
    const include = parseInclude(request.query as Query, INCLUDES);
    const event = await getRunEvent(contextOf(request), request.params.id);
    return { data: serializeRunEvent(event), ...included([event], include) };
  });
}
