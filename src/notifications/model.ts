import type { Change, VarsetVersion, VersionAction } from '../varsets/versions/model.js';

/**
 * Notifications of variable-set changes: an organization's configurations, what each change
 * sends, and the responses deliveries got. Pure: no SQL, no HTTP.
 */

export const DESTINATION_TYPES = ['generic', 'slack'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** The changes a configuration may be told of, one for each kind of version. */
export const TRIGGERS = ['varset:created', 'varset:changed', 'varset:deleted', 'varset:rolled-back'] as const;
export type Trigger = (typeof TRIGGERS)[number];

export const TRIGGER_OF_ACTION: Record<VersionAction, Trigger> = {
  create: 'varset:created',
  update: 'varset:changed',
  delete: 'varset:deleted',
  rollback: 'varset:rolled-back',
};

/** At most this many configurations per organization (HCP Terraform allows 20 per workspace). */
export const MAX_CONFIGURATIONS = 20;
/** The responses a configuration keeps, newest first. */
export const KEPT_RESPONSES = 10;
export const MAX_NAME_LENGTH = 255;
export const MAX_URL_LENGTH = 2048;
export const MAX_TOKEN_LENGTH = 1024;

export interface NotificationConfiguration {
  id: string;
  organizationId: string;
  /** The organization's name: its id in the API. */
  organizationName: string;
  name: string;
  destinationType: DestinationType;
  url: string;
  /** Sealed; null when deliveries are not signed. */
  sealedToken: string | null;
  enabled: boolean;
  triggers: Trigger[];
  createdAt: string;
  updatedAt: string;
}

/** What one attempt to send got: the status and the start of the body, or why nothing came back. */
export interface DeliveryResponse {
  url: string;
  /** null when no response came (a timeout, a refused connection, a refused address). */
  code: number | null;
  body: string;
  headers: Record<string, string[]>;
  error: string | null;
  successful: boolean;
  sentAt: string;
  /** The change it was about and the attempt (1, 2 …); null for a verification. */
  varsetId: string | null;
  versionNumber: number | null;
  attempt: number | null;
}

/** A change to send: the version it is about, with what the queue knows of it. */
export interface ChangeToSend {
  version: VarsetVersion;
  workspaceCount: number;
}

/**
 * A change as a notification tells it: what changed, never a value. A variable says its key,
 * category and whether it is sensitive; a change of an attribute or of a variable's field
 * names the field only.
 */
export type ToldChange =
  | { target: 'varset'; action: 'changed'; field: string }
  | { target: 'variable'; id: string; key: string; category: string; action: 'added' | 'removed'; sensitive: boolean }
  | { target: 'variable'; id: string; key: string; category: string; action: 'changed'; field: string }
  | { target: 'workspace' | 'project'; id: string; action: 'added' | 'removed' };

export function toldChange(change: Change): ToldChange {
  switch (change.target) {
    case 'varset':
      return { target: 'varset', action: 'changed', field: change.field };
    case 'workspace':
    case 'project':
      return { target: change.target, id: change.id, action: change.action };
    case 'variable':
      if (change.action === 'changed')
        return {
          target: 'variable',
          id: change.id,
          key: change.key,
          category: change.category,
          action: 'changed',
          field: change.field,
        };
      return {
        target: 'variable',
        id: change.id,
        key: change.key,
        category: change.category,
        action: change.action,
        sensitive: (change.after ?? change.before)?.sensitive ?? false,
      };
  }
}
