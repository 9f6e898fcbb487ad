import { events, type Subscriptions } from './events/registry.js';
import { subscribe as effective } from './effective/subscriptions.js';
import { subscribe as metrics } from './metrics/subscriptions.js';
import { subscribe as notifications } from './notifications/subscriptions.js';
import { subscribe as projects } from './projects/subscriptions.js';
import { subscribe as teams } from './teams/subscriptions.js';
import { subscribe as varsets } from './varsets/subscriptions.js';
import { subscribe as workspaces } from './workspaces/subscriptions.js';

/**
 * Every feature that reacts to another's events, in the order its reactions run: an
 * organization's default project before its owners team. Filled once per process, at start
 * (buildApp, and the command line's store commands), before any write.
 */
const SUBSCRIBERS: readonly ((on: Subscriptions) => void)[] = [
  projects,
  teams,
  workspaces,
  varsets,
  notifications,
  effective,
  metrics,
];

export function subscribeFeatures(): void {
  events.fill(SUBSCRIBERS);
}
