/** A JSON:API error object, as HCP Terraform writes them: `status` is a string. */
export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  /** varsetd's own, where a client must tell one refusal from another: a stable word. */
  code?: string;
  /** Facts of the refusal a client may act on (the ids it names). */
  meta?: Record<string, unknown>;
}

/** An error meant for the client: carries its HTTP status and JSON:API error objects. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
  ) {
    super(errors.map((e) => e.detail ?? e.title).join('; '));
  }

  toDocument(): { errors: ErrorObject[] } {
    return { errors: this.errors };
  }
}

/** The one 404 body, used alike for a missing resource and one the caller may not see. */
export function notFound(): ApiError {
  return new ApiError(404, [{ status: '404', title: 'not found' }]);
}

/** The store cannot serve now (see `isStoreUnavailable`); sent with Retry-After. */
export function serviceUnavailable(): ApiError {
  return new ApiError(503, [
    { status: '503', title: 'service unavailable', detail: 'the store is unavailable; try again later' },
  ]);
}

/** A write refused because the store's schema is newer than this server knows: another server, or this one upgraded, can make it. */
export function newerSchema(): ApiError {
  return new ApiError(503, [
    {
      status: '503',
      title: 'service unavailable',
      detail: 'the store was upgraded by a newer varsetd; try again later',
    },
  ]);
}

export function unauthorized(): ApiError {
  return new ApiError(401, [{ status: '401', title: 'unauthorized' }]);
}

/** A payload problem; `pointer` is a JSON pointer into the request body, e.g. `/data/attributes/name`. */
export function invalidAttribute(detail: string, pointer: string): ApiError {
  return new ApiError(422, [{ status: '422', title: 'invalid attribute', detail, source: { pointer } }]);
}

export function badQueryParameter(parameter: string, detail: string): ApiError {
  return new ApiError(400, [{ status: '400', title: 'bad request', detail, source: { parameter } }]);
}

export function badRequest(detail: string): ApiError {
  return new ApiError(400, [{ status: '400', title: 'bad request', detail }]);
}

export function conflict(detail: string): ApiError {
  return new ApiError(409, [{ status: '409', title: 'conflict', detail }]);
}
