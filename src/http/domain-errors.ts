import { ApiError, type ErrorObject } from '../jsonapi/errors.js';
import {
  Conflict,
  DomainError,
  fieldSegments,
  Forbidden,
  Invalid,
  InvalidFilter,
  NotFound,
  Taken,
  TokenRefused,
  TooLarge,
  TransitionRefused,
  Unprocessable,
} from '../common/errors.js';

/**
 * Where a field is in a request body, for a route whose body differs from the usual create or
 * update document: the field's first segment → the pointer of what it names (`/data` for a
 * body that is the list itself). Given in the route's `config.fields`.
 */
export type FieldPointers = Readonly<Record<string, string>>;

/** Relationships of a create or update body that hold a resource's `data` (one or a list). */
const RELATIONSHIP_DATA: FieldPointers = Object.fromEntries(
  ['parent', 'vars', 'workspaces', 'projects', 'tags', 'tag-bindings'].map((name) => [
    name,
    `/data/relationships/${name}/data`,
  ]),
);

/** Relationships a body must name, pointed at as a whole. */
const RELATIONSHIPS = new Set(['team', 'workspace', 'project', 'configuration-version', 'default-agent-pool']);

/**
 * The JSON pointer of a field into the request body: an attribute (`/data/attributes/…`), a
 * relationship, or a member of a resource in a list (`vars[2].key` is
 * `/data/relationships/vars/data/2/attributes/key`; its `id` is `…/2/id`). The empty field is the
 * request's resource as a whole (`/data`).
 */
export function pointerOf(field: string, route: FieldPointers = {}): string {
  if (field === '') return '/data';
  const [head = '', ...rest] = fieldSegments(field);
  const base = route[head] ?? RELATIONSHIP_DATA[head];
  if (base !== undefined) {
    const [index, ...member] = rest;
    const tail =
      member.length === 0
        ? ''
        : member[0] === 'id' || member[0] === 'type'
          ? `/${member.join('/')}`
          : `/attributes/${member.join('/')}`;
    return `${base}${index === undefined ? '' : `/${index}`}${tail}`;
  }
  if (RELATIONSHIPS.has(head) && rest.length === 0) return `/data/relationships/${head}`;
  return `/data/attributes/${[head, ...rest].join('/')}`;
}

/** A list filter's query parameter: `organization.name` is `filter[organization][name]`. */
function filterParameter(field: string): string {
  return `filter${fieldSegments(field)
    .map((segment) => `[${segment}]`)
    .join('')}`;
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function errorObject(error: DomainError, route: FieldPointers): ErrorObject {
  const at = (field: string | undefined) =>
    field === undefined ? {} : { source: { pointer: pointerOf(field, route) } };
  if (error instanceof NotFound) return { status: '404', title: 'not found' };
  if (error instanceof TokenRefused) return { status: '401', title: 'unauthorized' };
  if (error instanceof Forbidden)
    return { status: '403', title: 'forbidden', detail: error.reason, ...at(error.field) };
  if (error instanceof Invalid)
    return { status: '422', title: 'invalid attribute', detail: error.reason, ...at(error.field) };
  if (error instanceof Taken) {
    // A token's description is refused in HCP Terraform's own (Rails') words, which go-tfe compares.
    if (error.what === 'description')
      return {
        status: '422',
        title: 'invalid attributes',
        detail: 'Validation failed: Description has already been taken',
        ...at(error.field),
      };
    return {
      status: '422',
      title: 'invalid attribute',
      detail: `${capitalized(error.what)} has already been taken`,
      ...at(error.field),
    };
  }
  if (error instanceof Unprocessable)
    return { status: '422', title: 'unprocessable entity', detail: error.reason, ...at(error.field) };
  if (error instanceof Conflict) return { status: '409', title: 'conflict', detail: error.reason };
  if (error instanceof TransitionRefused)
    return { status: '409', title: 'transition not allowed', detail: error.reason };
  if (error instanceof TooLarge) return { status: '413', title: 'payload too large', detail: error.reason };
  if (error instanceof InvalidFilter) {
    const parameter = filterParameter(error.field);
    return { status: '400', title: 'bad request', detail: `${parameter} ${error.reason}`, source: { parameter } };
  }
  throw new Error(`no answer for ${error.constructor.name}`);
}

/** The JSON:API answer to a domain error: every status, title, detail and source of one is decided here. */
export function apiErrorOf(error: DomainError, route: FieldPointers = {}): ApiError {
  const object = errorObject(error, route);
  if (error.code !== undefined) object.code = error.code;
  if (error.facts !== undefined) object.meta = error.facts;
  return new ApiError(Number(object.status), [object]);
}
