/** The client of /api/v2 (JSON:API, and the audit trail's plain JSON): the token from sessionStorage, errors as ApiError. */

const TOKEN_KEY = 'varsetd.token';
const MEDIA_TYPE = 'application/vnd.api+json';

export interface ErrorObject {
  status?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  /** varsetd's own word for a refusal a client acts on (e.g. `missing-assignments`). */
  code?: string;
  meta?: Record<string, unknown>;
}

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
  return sessionStorage.getItem(TOKEN_KEY);
}

const signedOutListeners = new Set<() => void>();

export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  for (const listener of signedOutListeners) listener();
}

export interface Resource<A = Record<string, unknown>> {
  id: string;
  type: string;
  attributes: A;
  relationships?: Record<string, { data?: { id: string; type: string } | { id: string; type: string }[] | null }>;
}

export interface Pagination {
  'current-page': number;
  'page-size': number;
  'total-pages': number;
  'total-count': number;
  'next-page': number | null;
  'prev-page': number | null;
}

export interface Document<D> {
  data: D;
  included?: Resource[];
  meta?: { pagination?: Pagination };
}

/** Sends a request to /api/v2`path`; a 401 forgets the token (the UI then asks for another). */
export async function api<D>(method: string, path: string, body?: unknown, token = storedToken()): Promise<Document<D>> {
  return (await send(method, path, MEDIA_TYPE, body, token)) as Document<D>;
}

/**
 * GET of an endpoint that answers plain JSON rather than JSON:API (the audit trail, in HCP
 * Terraform's shape); its errors are JSON:API documents like every other's.
 */
export async function getPlainJson<T>(path: string): Promise<T> {
  return (await send('GET', path, 'application/json', undefined, storedToken())) as T;
}

async function send(method: string, path: string, accept: string, body: unknown, token: string | null): Promise<unknown> {
  const headers: Record<string, string> = { Accept: accept };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = MEDIA_TYPE;
  const response = await fetch(`/api/v2${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as { errors?: ErrorObject[] }) : {};
  if (!response.ok) {
    if (response.status === 401) forgetToken();
    throw new ApiError(response.status, parsed.errors ?? []);
  }
  return parsed;
}

/** A query string from parameters, leaving out empty ones. */
export function query(parameters: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;
