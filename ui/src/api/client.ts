/**
 * The client of /api/v2 (JSON:API, and the audit trail's plain JSON): the token from this tab's
 * sessionStorage, or from localStorage when the sign-in chose to be kept across this browser's
 * tabs; errors as ApiError.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

const TOKEN_KEY = 'varsetd.token';
const MEDIA_TYPE = 'application/vnd.api+json';

/** A JSON:API error object, as varsetd's OpenAPI document declares every operation's 4XX answer. */
export type ErrorObject =
  paths['/api/v2/organizations/{name}']['get']['responses']['4XX']['content']['application/vnd.api+json']['errors'][number];

/** Whether the error points at `pointer` or below it. */
function pointsInto(error: ErrorObject, pointer: string): boolean {
  const at = error.source?.pointer;
  return at === pointer || at?.startsWith(`${pointer}/`) === true;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
  ) {
    super(errors.map((e) => e.detail ?? e.title).join('; ') || `the server answered ${status}`);
  }

  /** The errors that point into the request body at `pointer` (or below it). */
  at(pointer: string): ErrorObject[] {
    return this.errors.filter((e) => pointsInto(e, pointer));
  }

  /** The errors that point at none of `pointers`: shown for the whole form. */
  elsewhere(pointers: string[]): ErrorObject[] {
    return this.errors.filter((e) => !pointers.some((p) => pointsInto(e, p)));
  }
}

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
}

const signedOutListeners = new Set<() => void>();

export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * Keeps the token for this tab only (sessionStorage), or, when `acrossTabs`, for every tab of
 * this browser until sign-out (localStorage only, so that signing out in one tab signs out all).
 */
export function saveToken(token: string, acrossTabs = false): void {
  if (acrossTabs) {
    sessionStorage.removeItem(TOKEN_KEY);
    localStorage.setItem(TOKEN_KEY, token);
  } else {
    localStorage.removeItem(TOKEN_KEY);
    sessionStorage.setItem(TOKEN_KEY, token);
  }
}

/** Signing out, or a token the API no longer accepts: forgotten in both storages. */
export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(TOKEN_KEY);
  for (const listener of signedOutListeners) listener();
}

/** Bodies of /api/v2 are JSON:API; the generated schema gives them under this media type. */
type JsonApi = typeof MEDIA_TYPE;

/** A query string (without its `?`) from parameters, leaving out empty ones. */
function search(parameters: Record<string, unknown>): string {
  const found = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined && value !== null && value !== '') found.set(name, String(value));
  return found.toString();
}

/** The stored token on every request that brings none of its own (signing in tries one before storing it). */
const signedIn: Middleware = {
  onRequest({ request }) {
    const token = storedToken();
    if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
    if (request.headers.has('Content-Type')) request.headers.set('Content-Type', MEDIA_TYPE);
    return request;
  },
};

function typedClient<M extends `${string}/${string}`>(accept: M) {
  const made = createClient<paths, M>({ headers: { Accept: accept }, querySerializer: search });
  made.use(signedIn);
  return made;
}

/** The typed client of /api/v2's JSON:API routes; read its answers with `answer`. */
export const api = typedClient<JsonApi>(MEDIA_TYPE);
/** The same for the routes that answer plain JSON (the audit trail, in HCP Terraform's shape); their errors are JSON:API documents like every other's. */
export const plainApi = typedClient('application/json');

/** The body of a successful answer; a failure throws ApiError, and a 401 forgets the token (the UI then asks for another). */
export async function answer<R extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<R>,
): Promise<NonNullable<R['data']>> {
  const { data, error, response } = await call;
  if (!response.ok) {
    if (response.status === 401) forgetToken();
    const errors =
      typeof error === 'object' && error !== null && 'errors' in error ? (error.errors as ErrorObject[]) : [];
    throw new ApiError(response.status, errors);
  }
  return data as NonNullable<R['data']>;
}

/**
 * A write's answer (as `answer` reads it) and the request id it was answered with (`X-Request-Id`),
 * which the version of a set the write made records as its `request-id`.
 */
export async function answerWithRequestId<R extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<R>,
): Promise<{ data: NonNullable<R['data']>; requestId: string | null }> {
  const result = await call;
  return { data: await answer(Promise.resolve(result)), requestId: result.response.headers.get('X-Request-Id') };
}

export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;
