/**
 * What an organization of varsetd is entitled to, in the words of HCP Terraform's entitlement
 * sets: the features varsetd has. Teams are its only one; runs are kept but carried out by
 * clients (`varsetd exec`), not by varsetd, so it has no remote operations.
 */
export const ENTITLEMENTS = {
  agents: false,
  'audit-logging': false,
  'configuration-designer': false,
  'cost-estimation': false,
  'global-run-tasks': false,
  infragraph: false,
  'infragraph-with-nrtu': false,
  'module-tests-generation': false,
  operations: false,
  'private-module-registry': false,
  'private-policy-agents': false,
  'private-run-tasks': false,
  'private-vcs': false,
  'run-tasks': false,
  sentinel: false,
  sso: false,
  'state-storage': false,
  teams: true,
  'usage-reporting': false,
  'user-limit': null,
  'vcs-integrations': false,
  'waypoint-actions': false,
  'waypoint-templates-and-addons': false,
} as const;
