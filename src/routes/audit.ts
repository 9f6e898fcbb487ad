import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../http/context.js';
import { badQueryParameter } from '../jsonapi/errors.js';
import { parsePage, single, type Query as QueryValues } from '../jsonapi/query.js';
import { Query, Responses } from '../jsonapi/schemas.js';
import { AUDIT_PAGE_SIZE, type TrailQuery } from '../audit/model.js';
import { AuditTrailDocument, AuditTrailQuery } from '../audit/schemas.js';
import { auditTrailDocument } from '../audit/serialize.js';
import { readAuditTrail } from '../audit/service.js';
import { tagged } from '../jsonapi/tags.js';

export const auditRoutes: FastifyPluginAsyncTypebox = async (api) => {
  api.addHook('onRoute', tagged('auditTrail'));
  api.get(
    '/organization/audit-trail',
    { schema: { querystring: Query(AuditTrailQuery), response: Responses({ 200: AuditTrailDocument }) } },
    async (request, reply) => {
      const page = parsePage(request.query, { default: AUDIT_PAGE_SIZE, max: AUDIT_PAGE_SIZE });
      const since = parseSince(request.query);
      const organizationName = single(request.query, 'filter[organization][name]');
      const { events, total } = await readAuditTrail(contextOf(request), organizationName, {
        since,
        page,
        filters: parseFilters(request.query),
      });
      // Plain JSON, as HCP Terraform answers this endpoint; its errors stay JSON:API documents.
      void reply.type('application/json');
      return auditTrailDocument(events, total, page);
    },
  );
};

const FILTERS = {
  'filter[resource][type]': 'type',
  'filter[resource][action]': 'action',
  'filter[auth][description]': 'who',
} as const;

/** The trail's filters: an empty value filters nothing. */
function parseFilters(query: QueryValues): NonNullable<TrailQuery['filters']> {
  const filters: NonNullable<TrailQuery['filters']> = {};
  for (const [parameter, name] of Object.entries(FILTERS)) {
    const raw = single(query, parameter);
    if (raw !== undefined && raw !== '') filters[name] = raw;
  }
  return filters;
}

/** A date and time, seconds at least, with Z or an offset (`+` may arrive as a space when a client left it unencoded). */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+ -]\d{2}:?\d{2})$/i;

/**
 * `since` as stored timestamps are written (UTC, milliseconds), rounded up to the next
 * millisecond when it is finer, so that "at or after" compares exactly.
 */
function parseSince(query: QueryValues): string | undefined {
  const raw = single(query, 'since');
  if (raw === undefined || raw === '') return undefined;
  const invalid = () =>
    badQueryParameter(
      'since',
      `since must be an ISO 8601 date and time, e.g. 2026-05-30T17:52:46.000Z; got ${JSON.stringify(raw.slice(0, 64))}`,
    );
  const match = TIMESTAMP.exec(raw);
  if (!match) throw invalid();
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const offset =
    zone!.toUpperCase() === 'Z' ? 'Z' : `${zone![0] === '-' ? '-' : '+'}${zone!.slice(1, 3)}:${zone!.slice(-2)}`;
  const ms = Date.parse(
    `${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.slice(0, 3).padEnd(3, '0')}${offset}`,
  );
  // Date.parse accepts 31 February and hour 24; a day or time that does not exist is refused.
  const check = new Date(Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!));
  if (
    Number.isNaN(ms) ||
    check.getUTCMonth() !== +month! - 1 ||
    check.getUTCDate() !== +day! ||
    check.getUTCHours() !== +hour! ||
    check.getUTCMinutes() !== +minute! ||
    check.getUTCSeconds() !== +second!
  )
    throw invalid();
  const finer = /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  return new Date(ms + finer).toISOString();
}
