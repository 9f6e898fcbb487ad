import type { RouteOptions } from 'fastify';
import { Query } from './schemas.js';

const NO_PARAMETERS = Query({});

/**
 * An `onRoute` hook making every route's querystring closed: a route that declares no
 * querystring accepts none, and a declared one accepts only the parameters it names, so no
 * parameter is ever silently ignored.
 */
export function closeQuerystring(route: RouteOptions): void {
  const schema = (route.schema ??= {});
  const declared = schema.querystring as Record<string, unknown> | undefined;
  schema.querystring = declared === undefined ? NO_PARAMETERS : { ...declared, additionalProperties: false };
}
