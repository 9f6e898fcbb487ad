import type { Migration } from 'kysely';
import * as core from './0001_core.js';
import * as runs from './0002_runs.js';
import * as access from './0003_access.js';
import * as workspaceVariables from './0004_workspace_variables.js';
import * as varsetListIndexes from './0005_varset_list_indexes.js';
import * as varsetSearchIndex from './0006_varset_search_index.js';
import * as organizationVersions from './0007_organization_versions.js';
import * as searchNames from './0008_search_names.js';
import * as runExecution from './0009_run_execution.js';
import * as workspaceSettings from './0010_workspace_settings.js';
import * as organizationProjectSettings from './0011_organization_project_settings.js';
import * as tokensAndGrants from './0012_tokens_and_grants.js';
import * as archivedConfigurationVersions from './0013_archived_configuration_versions.js';
import * as userTokensEnabled from './0014_user_tokens_enabled.js';
import * as credentialsVersion from './0015_credentials_version.js';
import * as varsetCounts from './0016_varset_counts.js';
import * as varsetVersions from './0017_varset_versions.js';
import * as auditEvents from './0018_audit_events.js';
import * as varsetNotifications from './0019_varset_notifications.js';
import * as valueNeeded from './0020_value_needed.expand.js';
import * as workloadIdentityKeys from './0021_workload_identity_keys.expand.js';
import * as varsetVersionCause from './0022_varset_version_cause.expand.js';
import * as keyAndDeletionIndexes from './0023_key_and_deletion_indexes.expand.js';

/**
 * Every migration, in order. Names sort in the order they run. A released migration is never
 * renamed, edited or removed: test/migration-manifest.test.ts holds their checksums.
 *
 * Servers of the previous release serve on while a newer one migrates (a rolling upgrade, in
 * docs/deployment.md#upgrading), so each migration is one of two kinds:
 *
 * - **Expand**, named `NNNN_what.expand`: only adds what older code neither reads nor must write
 *   (a table, a nullable or defaulted column, an index), and no trigger or constraint that older
 *   writes would break or bypass. A trigger that makes older writes keep something new right is
 *   expand (0020's clears the flag it adds when an older server writes a value). A server that
 *   does not know it goes on serving and writing.
 * - **Contract**, every other name: anything else (a column dropped or renamed, a constraint
 *   older writes may break, a table whose rows every write must now keep up to date). A server
 *   that does not know it refuses to start, answers `/readyz` with 503 and every write with 503
 *   (src/db/schema-guard.ts). So a release's contract migrations undo only what the release
 *   before it stopped using, and an upgrade with one stops every older server first.
 *
 * 0001–0019 came before this rule and count as contract: 0017–0019 make every write of a set
 * record its version and audit event, which an older server would not. 0020 and 0021 are
 * expand: an upgrade from 0.3.0 is rolling (scripts/rolling-upgrade.sh proves it in CI).
 */
export const EXPAND_SUFFIX = '.expand';

export const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_runs': runs,
  '0003_access': access,
  '0004_workspace_variables': workspaceVariables,
  '0005_varset_list_indexes': varsetListIndexes,
  '0006_varset_search_index': varsetSearchIndex,
  '0007_organization_versions': organizationVersions,
  '0008_search_names': searchNames,
  '0009_run_execution': runExecution,
  '0010_workspace_settings': workspaceSettings,
  '0011_organization_project_settings': organizationProjectSettings,
  '0012_tokens_and_grants': tokensAndGrants,
  '0013_archived_configuration_versions': archivedConfigurationVersions,
  '0014_user_tokens_enabled': userTokensEnabled,
  '0015_credentials_version': credentialsVersion,
  '0016_varset_counts': varsetCounts,
  '0017_varset_versions': varsetVersions,
  '0018_audit_events': auditEvents,
  '0019_varset_notifications': varsetNotifications,
  '0020_value_needed.expand': valueNeeded,
  '0021_workload_identity_keys.expand': workloadIdentityKeys,
  '0022_varset_version_cause.expand': varsetVersionCause,
  '0023_key_and_deletion_indexes.expand': keyAndDeletionIndexes,
};
