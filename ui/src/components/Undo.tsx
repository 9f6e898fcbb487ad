import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Link, useNavigate } from 'react-router';
import type { VarsetVersion } from '../api/types';
import { setVersions } from '../api/versions';
import { useAnnounce } from './frame';
import { RestoreDialog } from './RestoreDialog';

/** A write to a set that Undo takes back: the version it made, and whether it deleted the set. */
interface Undoable {
  setId: string;
  setName: string;
  made: VarsetVersion;
  deleted: boolean;
}

/** The set's newest versions, newest first (numbered without a gap: the second is the one before). */
const newestVersions = (setId: string, size: number) => setVersions(setId, { number: 1, size });

/**
 * The version the write answered with `requestId` made, while it is the set's newest (the
 * version records its write's request id). None for a write that changed nothing, or when
 * another write came first: then there is nothing this write alone could undo.
 */
async function versionMadeBy(setId: string, requestId: string | null): Promise<VarsetVersion | undefined> {
  if (!requestId) return undefined;
  const [newest] = await newestVersions(setId, 1).catch(() => []);
  return newest?.attributes['request-id'] === requestId ? newest : undefined;
}

/**
 * The Undo of the write to set `setId` answered with `requestId`, for its message; none when the
 * write made no version, or the set's newest version is already another write's. Offer it only
 * to a token that may roll the set back: one that may change it, and for a deletion, the owners.
 */
export async function undoFor(
  setId: string,
  requestId: string | null,
  deleted = false,
): Promise<ReactElement | undefined> {
  const made = await versionMadeBy(setId, requestId);
  if (!made) return undefined;
  return <UndoButton undo={{ setId, setName: made.attributes['varset-name'], made, deleted }} />;
}

/** Undo refused: the set has a newer version than the write's, someone else's change Undo would take back too. */
class ChangedSince extends Error {
  constructor(
    readonly setName: string,
    readonly newest: VarsetVersion,
  ) {
    const { number, actor } = newest.attributes;
    super(
      `Not undone: ${setName} changed since, as version ${number} by ${actor.description}. Undoing would take back that change too.`,
    );
  }
}

/**
 * The version to restore: the one before the write's, while the write's is still the newest.
 * Asked when Undo opens its dialog and again on Confirm, to say who changed the set since; the
 * rollback itself is conditional too (`if-newest-version`), for a write landing in between.
 */
async function versionBefore(undo: Undoable): Promise<VarsetVersion> {
  const [newest, before] = await newestVersions(undo.setId, 2);
  if (newest && newest.id !== undo.made.id) throw new ChangedSince(undo.setName, newest);
  if (!before) throw new Error(`${undo.setName} has no version before this write to go back to.`);
  return before;
}

/**
 * Undo, in the message of the write it takes back: the restore dialog (its dry run says what
 * undoing changes) for the version before the write, refused when the set changed since. Once
 * undone, focus goes to the page's heading (the restored set's, after a deletion).
 */
function UndoButton({ undo }: { undo: Undoable }) {
  const announce = useAnnounce();
  const navigate = useNavigate();
  const [before, setBefore] = useState<VarsetVersion>();
  const [open, setOpen] = useState(false);
  const [checking, setChecking] = useState(false);
  const [refused, setRefused] = useState<unknown>();
  const refusal = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (refused !== undefined) refusal.current?.focus();
  }, [refused]);
  const start = () => {
    setChecking(true);
    versionBefore(undo).then(
      (version) => (setBefore(version), setOpen(true), setChecking(false)),
      (error: unknown) => (setRefused(error), setChecking(false)),
    );
  };
  const restored = (made: number | null) => {
    const to = before!.attributes.number;
    const text = made
      ? `Undone: ${undo.setName} is again as it was at version ${to} (as version ${made})`
      : `Undone: ${undo.setName} was already as it was at version ${to}`;
    if (undo.deleted) {
      announce(text, `/varsets/${undo.setId}`);
      void navigate(`/varsets/${undo.setId}`); // the new page's heading takes focus
    } else {
      announce(text);
      setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus(), 0);
    }
  };
  if (refused !== undefined)
    return (
      <span role="alert" tabIndex={-1} ref={refusal} className="form-error">
        {refused instanceof Error ? refused.message : String(refused)}{' '}
        {refused instanceof ChangedSince && (
          <Link to={`/varsets/${undo.setId}/history?version=${refused.newest.attributes.number}`}>
            See the set's history
          </Link>
        )}
      </span>
    );
  return (
    <>
      <button type="button" className="small" onClick={start} disabled={checking}>
        Undo
      </button>
      {before && (
        <RestoreDialog
          setId={undo.setId}
          setName={undo.setName}
          version={before}
          open={open}
          known={new Map()}
          title={`Undo: restore ${undo.setName} as it was at version ${before.attributes.number}?`}
          guard={async () => {
            await versionBefore(undo);
          }}
          ifNewest={undo.made.id}
          onRestored={restored}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
