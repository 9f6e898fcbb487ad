import { notFound } from '../jsonapi/errors.js';
import type { Subject } from './subject.js';

/**
 * Every permission decision of varsetd is made here. Services ask "may this subject do
 * this action on this resource"; a refusal looks exactly like a missing resource (404).
 */
export type Action =
  | 'organizations:create'
  | 'organizations:list'
  | 'organization:read'
  | 'organization:update'
  | 'organization:delete'
  | 'projects:create'
  | 'project:read'
  | 'project:update'
  | 'project:delete'
  | 'workspaces:create'
  | 'workspace:read'
  | 'workspace:update'
  | 'workspace:delete'
  | 'varsets:create'
  | 'varset:read'
  | 'varset:update'
  | 'varset:delete'
  | 'workspace:read-variables'
  | 'project:read-variables'
  | 'run:read'
  | 'run:create'
  | 'comment:create';

/** The resource an action is about, located by its organization and, where it has them, project and workspace. */
export interface Target {
  organizationId?: string;
  projectId?: string | null;
  workspaceId?: string;
}

export function can(subject: Subject, action: Action, target: Target = {}): boolean {
  void action;
  void target;
  // Only the site administrator exists so far; it may do everything.
  return subject.kind === 'site-admin';
}

/** Throws the 404 of a missing resource unless the subject may do the action. */
export function ensure(subject: Subject, action: Action, target: Target = {}): void {
  if (!can(subject, action, target)) throw notFound();
}
