/**
 * A read whose response may be kept and served again while its organization's version stands
 * (src/cache): the version, read before or with anything the response holds, once the caller's
 * permission is decided; then what the response shows, read only when no kept body serves it.
 */
export interface VersionedRead<T> {
  /** Undefined when the response is not the same for every caller allowed to read it: it is never kept. */
  version: number | undefined;
  read(): Promise<T>;
}
