import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { varsetChanged } from '../api/invalidate';
import { queryKeys } from '../api/queryKeys';
import type { VarsetVersion } from '../api/types';
import { rollback } from '../api/versions';
import { ConfirmDialog } from './ConfirmDialog';
import { FormError } from './errors';
import { ImpactSummary, previewWrite } from './ImpactPreview';
import { useAnnounce } from './frame';
import { VersionChanges, type KnownNames } from './VersionChanges';

/** The 422 of assignments that are gone ends by telling API clients how to restore the rest; the UI offers a button instead. */
const MISSING_HINT = /; ask with skip-missing=true to restore the rest$/;

/**
 * Restoring a set as it was at `version`: a dry run first, whose changes (or refusal) the dialog
 * shows, then the rollback itself once confirmed. Assignments that are gone can be left out
 * ("Restore the rest"); a dry run that changes nothing offers no confirmation.
 */
export function RestoreDialog({
  setId,
  setName,
  version,
  open,
  known,
  onClose,
  title,
  guard,
  ifNewest,
  onRestored,
}: {
  setId: string;
  setName: string;
  version: VarsetVersion;
  open: boolean;
  known: KnownNames;
  onClose: () => void;
  /** The dialog's title, when it is not "Restore … as it was at version N?". */
  title?: string;
  /** Checked again on Confirm, before the rollback: a rejection (its message shown) makes none. */
  guard?: () => Promise<void>;
  /** The version that must still be the set's newest: the API refuses the rollback (409) otherwise. */
  ifNewest?: string;
  /** Told the number of the version made (null: none), instead of the message "Restored version …". */
  onRestored?: (made: number | null) => void;
}) {
  const number = version.attributes.number;
  const [skipMissing, setSkipMissing] = useState(false);
  const close = () => {
    setSkipMissing(false);
    restore.reset();
    onClose();
  };
  const client = useQueryClient();
  const announce = useAnnounce();
  const dryRun = useQuery({
    queryKey: queryKeys.varsets.rollbackDryRun(setId, version.id, skipMissing),
    queryFn: () => rollback(setId, version.id, { dryRun: true, skipMissing }),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  // Which workspaces get other values, as a save's preview lists them: the preview of the rollback itself.
  const impact = useQuery({
    queryKey: [...queryKeys.varsets.rollbackDryRun(setId, version.id, skipMissing), 'impact'],
    queryFn: () =>
      previewWrite(setId, {
        data: { type: 'varset-versions', id: version.id },
        ...(skipMissing ? { meta: { 'skip-missing': true } } : {}),
      }),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const restore = useMutation({
    mutationFn: async () => {
      await guard?.();
      return rollback(setId, version.id, { dryRun: false, skipMissing, ifNewest });
    },
    onSuccess: async (result) => {
      const made = result.meta.version;
      if (!onRestored)
        announce(
          made ? `Restored version ${number} as version ${made.number}` : `Version ${number} restored: nothing changed`,
        );
      close();
      client.removeQueries({ queryKey: queryKeys.varsets.rollbackDryRun(setId) });
      await varsetChanged(client, setId);
      onRestored?.(made ? made.number : null);
    },
  });
  const changes = dryRun.data && dryRun.data.meta.changes;
  const missing =
    dryRun.error instanceof ApiError && dryRun.error.status === 422
      ? dryRun.error.errors.find((e) => e.code === 'missing-assignments')
      : undefined;
  return (
    <ConfirmDialog
      open={open}
      title={title ?? `Restore ${setName} as it was at version ${number}?`}
      confirmLabel="Confirm"
      busy={restore.isPending}
      onCancel={close}
      {...(changes?.length ? { onConfirm: () => restore.mutate() } : {})}
    >
      {open && dryRun.isPending && <p>Working out what restoring would change…</p>}
      {changes && changes.length > 0 && (
        <>
          <p>
            Restoring makes these changes, as a new version
            {skipMissing ? ', leaving out the workspaces and projects that are gone' : ''}:
          </p>
          <VersionChanges changes={changes} known={known} label="What restoring changes" />
          {impact.data ? (
            <ImpactSummary preview={impact.data} />
          ) : (
            !impact.error && <p>Working out which workspaces this changes…</p>
          )}
        </>
      )}
      {changes && changes.length === 0 && (
        <p>The set is already as it was at version {number}: restoring would change nothing.</p>
      )}
      {missing ? (
        <>
          <p className="form-error" role="alert">
            {missing.detail!.replace(MISSING_HINT, '')}.
          </p>
          <button type="button" onClick={() => setSkipMissing(true)}>
            Restore the rest
          </button>
        </>
      ) : (
        <FormError error={dryRun.error} fields={[]} />
      )}
      {restore.error && !(restore.error instanceof ApiError) ? (
        <p className="form-error" role="alert">
          {restore.error.message}
        </p>
      ) : (
        <FormError error={restore.error} fields={[]} />
      )}
    </ConfirmDialog>
  );
}
