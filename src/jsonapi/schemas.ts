import Type, { type TLiteral, type TObject, type TProperties, type TSchema, type TString } from 'typebox';

/**
 * Building blocks for route schemas: JSON:API request bodies, documents and errors. A route
 * declares its params, query, body and responses with these; Fastify validates requests
 * against them (see validation.ts for the errors it answers), serializes responses through
 * them, and the OpenAPI document at /api/v2/openapi.json is generated from them.
 */

/** `schema` or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An attribute a client may leave out; null counts as left out. */
export const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** `{type, id}`: other members are ignored. */
export const Identifier = <T extends string>(type: T) =>
  Type.Object({ type: Type.Literal(type), id: Type.String({ minLength: 1 }) });

/** `{data: {type, id} | null}`; other members are ignored. */
export const ToOneInput = <T extends string>(type: T) => Type.Object({ data: Nullable(Identifier(type)) });

/** `{data: [{type, id}, …]}`. */
export const ToManyInput = <T extends string>(type: T) => Type.Object({ data: Type.Array(Identifier(type)) });

/**
 * A request body whose `data` is one resource of `type`. Attributes and relationships not
 * named are ignored, as HCP Terraform ignores them; `attributes` and `relationships` may be
 * left out (or null) altogether. With several types, any of them is accepted.
 */
export function ResourceBody<A extends TProperties, R extends TProperties = {}>(
  type: string | readonly string[],
  attributes: A,
  relationships?: R,
) {
  return Type.Object({
    data: Type.Object({
      type: typeof type === 'string' ? Type.Literal(type) : Type.Union(type.map((t) => Type.Literal(t))),
      id: Type.Optional(Type.Unknown()),
      attributes: Maybe(Type.Object(attributes)),
      relationships: Maybe(Type.Object(relationships ?? ({} as R))),
    }),
  });
}

/** A body that may be left out entirely (clients send none, or an empty one). */
export const OptionalBody = <T extends TSchema>(schema: T) => Nullable(schema);

// ---------------------------------------------------------------------------------------
// Query parameters: every value is a string; its rules are checked by the route (query.ts).

export const PageQuery = {
  'page[number]': Type.Optional(Type.String({ description: 'page to answer, from 1' })),
  'page[size]': Type.Optional(Type.String({ description: 'resources per page, 1 to 100 (default 20)' })),
};

export const IncludeQuery = (names: readonly string[]) => ({
  include: Type.Optional(
    Type.String({
      description: names.length
        ? `comma-separated: ${names.join(', ')}`
        : 'nothing can be included; only an empty value is accepted',
    }),
  ),
});

/**
 * Query parameters: exactly those named. Any other is refused with a 400 naming it and the
 * ones the endpoint supports (validation.ts); a route that declares none takes none (closed-query.ts).
 */
export const Query = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });

// ---------------------------------------------------------------------------------------
// Responses

export const ResourceLinks = Type.Object({ self: Type.String() });

/** A relationship of a response: its linkage, and links where there are any. */
export const ToOne = (type: string) =>
  Type.Object({
    data: Nullable(Type.Object({ id: Type.String(), type: Type.Literal(type) })),
    links: Type.Optional(Type.Object({ related: Type.String() })),
  });
export const ToMany = (type: string) =>
  Type.Object({
    data: Type.Array(Type.Object({ id: Type.String(), type: Type.Literal(type) })),
    links: Type.Optional(Type.Object({ related: Type.String() })),
  });
/** A relationship given by a link only. */
export const Related = Type.Object({ links: Type.Object({ related: Type.String() }) });

/** The members of a resource: `relationships` and `links` only where the resource has them. */
type ResourceMembers<
  T extends string,
  A extends TProperties,
  R extends TProperties | undefined,
  L extends TSchema | null,
> = {
  id: TString;
  type: TLiteral<T>;
  attributes: TObject<A>;
} & (R extends TProperties ? { relationships: TObject<R> } : {}) &
  (L extends TSchema ? { links: L } : {});

/** A resource of a response: every attribute and relationship is declared, so nothing is left out by the serializer. */
export function Resource<
  T extends string,
  A extends TProperties,
  R extends TProperties | undefined = undefined,
  L extends TSchema | null = typeof ResourceLinks,
>(
  type: T,
  attributes: A,
  relationships?: R,
  links: L = ResourceLinks as unknown as L,
): TObject<ResourceMembers<T, A, R, L>> {
  return Type.Object({
    id: Type.String(),
    type: Type.Literal(type),
    attributes: Type.Object(attributes),
    ...(relationships ? { relationships: Type.Object(relationships) } : {}),
    ...(links ? { links } : {}),
  }) as unknown as TObject<ResourceMembers<T, A, R, L>>;
}

/** Included resources are of several types; each is serialized as its own serializer made it. */
const Included = Type.Optional(Type.Array(Type.Unknown()));

export const Document = <T extends TSchema>(resource: T) => Type.Object({ data: resource, included: Included });

const Pagination = Type.Object({
  'current-page': Type.Integer(),
  'page-size': Type.Integer(),
  'prev-page': Nullable(Type.Integer()),
  'next-page': Nullable(Type.Integer()),
  'total-pages': Type.Integer(),
  'total-count': Type.Integer(),
});

export const ListDocument = <T extends TSchema>(resource: T) =>
  Type.Object({
    data: Type.Array(resource),
    included: Included,
    links: Type.Object({
      self: Type.String(),
      first: Type.String(),
      prev: Nullable(Type.String()),
      next: Nullable(Type.String()),
      last: Type.String(),
    }),
    meta: Type.Object({ pagination: Pagination }),
  });

/** A document of all the resources at once, unpaginated. */
export const CollectionDocument = <T extends TSchema>(resource: T) =>
  Type.Object({ data: Type.Array(resource), included: Included });

export const ErrorDocument = Type.Object({
  errors: Type.Array(
    Type.Object({
      status: Type.String(),
      title: Type.String(),
      detail: Type.Optional(Type.String()),
      source: Type.Optional(
        Type.Object({ pointer: Type.Optional(Type.String()), parameter: Type.Optional(Type.String()) }),
      ),
      code: Type.Optional(Type.String()),
      meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  ),
});

export const NoContent = Type.Null({ description: 'no content' });

/** The responses of a route: its success responses, and a JSON:API error document for every 4xx. */
export function Responses<S extends Record<number, TSchema>>(success: S) {
  return { ...success, '4xx': ErrorDocument };
}
