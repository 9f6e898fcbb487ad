import type { FastifyRequest, RouteOptions } from 'fastify';
import { badQueryParameter } from './errors.js';
import { Query } from './schemas.js';

const NO_PARAMETERS = Query({});

/**
 * An `onRoute` hook making every route's querystring closed, so no parameter is ever silently
 * ignored: a route that declares no querystring accepts none, and a declared one only the
 * parameters it names. An undeclared parameter is refused before the body is looked at, with a
 * 400 naming it and the parameters the endpoint supports.
 */
export function closeQuerystring(route: RouteOptions): void {
  const schema = (route.schema ??= {});
  const declared = (schema.querystring ?? NO_PARAMETERS) as {
    properties?: Record<string, unknown>;
    patternProperties?: Record<string, unknown>;
  };
  schema.querystring = { ...declared, additionalProperties: false };
  const supported = new Set(Object.keys(declared.properties ?? {}));
  // Indexed families such as filter[tagged][N][key] are declared as patterns.
  const patterns = Object.keys(declared.patternProperties ?? {});
  const matchers = patterns.map((pattern) => new RegExp(pattern, 'u'));
  const refuseUnknown = async (request: FastifyRequest) => {
    for (const name of Object.keys(request.query as Record<string, unknown>)) {
      if (!supported.has(name) && !matchers.some((matcher) => matcher.test(name)))
        throw unknownParameter(name, [...supported, ...patterns]);
    }
  };
  const hooks = route.preValidation;
  route.preValidation =
    hooks === undefined ? [refuseUnknown] : [refuseUnknown, ...(Array.isArray(hooks) ? hooks : [hooks])];
}

function unknownParameter(name: string, supported: readonly string[]) {
  const accepted = supported.length ? `it supports ${supported.join(', ')}` : 'it takes no query parameters';
  return badQueryParameter(name, `${name} is not a query parameter of this endpoint; ${accepted}`);
}
