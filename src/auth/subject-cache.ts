import type { Store } from '../db/connect.js';
import { findCredentialsVersion } from './store.js';
import type { Subject } from './subject.js';
import { admit, hashToken, loadSubject, type StoredSubject } from './tokens.js';

/** Tokens whose subjects a process keeps; past that many it starts again from none. */
const CAPACITY = 1000;

/**
 * The subjects of the tokens a process has seen, kept while the database's credentials version
 * (migration 0015) is the one they were read at. A request then costs one lookup of that
 * number instead of its token's query (and its team's grants): every change to a row a
 * subject is made of raises the number in the writing transaction, whichever process wrote, so
 * the next request of every process reads its subjects anew. Unknown tokens are not kept.
 */
export class SubjectCache {
  #version = -1;
  readonly #subjects = new Map<string, StoredSubject>();

  constructor(private readonly store: Store) {}

  /**
   * The subject of a token this process keeps, admitted without reading the credentials version:
   * the request's read must then read the version in its own statement and compare it with
   * `version` before it decides anything (`Context.credentialsUnconfirmed`). Undefined when the
   * token is not kept, or is expired (`authenticate` then says which).
   */
  async kept(secret: string): Promise<{ subject: Subject; version: number } | undefined> {
    const stored = this.#subjects.get(hashToken(secret));
    if (!stored) return undefined;
    const subject = await admit(this.store, stored, Date.now());
    return subject ? { subject, version: this.#version } : undefined;
  }

  /** The subject a bearer secret stands for, or null when the token is unknown or expired. */
  async authenticate(secret: string): Promise<Subject | null> {
    const tokenHash = hashToken(secret);
    const version = await findCredentialsVersion(this.store.db);
    // Any other number, a lower one too (a database restored from a backup), drops them all.
    if (version !== this.#version) {
      this.#subjects.clear();
      this.#version = version;
    }
    let stored = this.#subjects.get(tokenHash) ?? null;
    if (!stored) {
      stored = await loadSubject(this.store.db, tokenHash);
      if (!stored) return null;
      if (stored.credentialsVersion === this.#version) {
        if (this.#subjects.size >= CAPACITY) this.#subjects.clear();
        this.#subjects.set(tokenHash, stored);
      }
    }
    return admit(this.store, stored, Date.now());
  }
}
