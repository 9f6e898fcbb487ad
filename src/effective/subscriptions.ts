import type { Subscriptions } from '../events/registry.js';
import { readAfterWrite, readBeforeWrite } from './preview.js';

/** A preview reads what a set reaches in the write's transaction, before and after the write, which is then taken back. */
export function subscribe(on: Subscriptions): void {
  on.inTransaction('varset.writing', readBeforeWrite);
  on.inTransaction('varset.written', readAfterWrite);
}
