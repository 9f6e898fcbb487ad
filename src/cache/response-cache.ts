/**
 * Rendered responses of variable-set reads, kept by each process for as long as their
 * organization's version (raised by the database on every write that changes what they show,
 * see migration 0007) is the one they were rendered at. The version is read from the database
 * on every request, before any data the response holds, so a process never serves what
 * another process's write has changed. Who may read is decided on every request too; only the
 * rendering is reused.
 */
/** MiB of rendered responses a process keeps unless configured otherwise (`VARSETD_RESPONSE_CACHE_MB`). */
export const DEFAULT_RESPONSE_CACHE_MB = 64;

export class ResponseCache {
  /** In least recently used order. */
  private readonly entries = new Map<string, { version: number; body: string }>();
  private size = 0;
  /** Reads answered with a kept body, reads rendered anew though cacheable, and reads not cacheable at all. */
  readonly outcomes = { hit: 0, miss: 0, uncacheable: 0 };

  /** `maxSize` bounds the characters held (keys and bodies); 0 keeps nothing. */
  constructor(private readonly maxSize: number) {}

  /** Bodies kept, and the characters they and their keys hold. */
  get held(): { entries: number; characters: number } {
    return { entries: this.entries.size, characters: this.size };
  }

  /** The version the body kept for `key` was rendered at, if one is kept. */
  versionHeld(key: string): number | undefined {
    return this.entries.get(key)?.version;
  }

  /**
   * The body kept for `key` at `version`, or the document built by `render`, turned into the
   * body by `serialize` (a route's response serializer) and kept. `version` undefined: not
   * cacheable, always rendered.
   */
  async through(
    key: string,
    version: number | undefined,
    render: () => Promise<unknown>,
    serialize: (document: unknown) => string = JSON.stringify,
  ): Promise<string> {
    if (version !== undefined) {
      const entry = this.entries.get(key);
      if (entry?.version === version) {
        this.outcomes.hit++;
        this.entries.delete(key);
        this.entries.set(key, entry);
        return entry.body;
      }
      this.outcomes.miss++;
    } else {
      this.outcomes.uncacheable++;
    }
    const body = serialize(await render());
    if (version !== undefined) this.keep(key, version, body);
    return body;
  }

  private keep(key: string, version: number, body: string): void {
    const previous = this.entries.get(key);
    // A slower request may finish after a newer rendering was kept: versions only grow.
    if (previous && previous.version > version) return;
    if (previous) {
      this.entries.delete(key);
      this.size -= key.length + previous.body.length;
    }
    if (key.length + body.length > this.maxSize) return;
    this.entries.set(key, { version, body });
    this.size += key.length + body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxSize) break;
      this.entries.delete(oldest);
      this.size -= oldest.length + entry.body.length;
    }
  }
}
