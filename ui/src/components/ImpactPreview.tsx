import { createContext, useContext, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { answer, api } from '../api/client';
import type { Body, ImpactChange, ImpactDocument, ImpactValue, WorkspaceImpact } from '../api/types';
import { ConfirmDialog } from './ConfirmDialog';
import { FormError } from './errors';

/** Asks the API what a write to set `id` would change (`POST …/actions/preview` with the write's body); writes nothing. */
export function previewWrite(
  id: string,
  body: Body<'/api/v2/varsets/{id}/actions/preview', 'post'>,
): Promise<ImpactDocument> {
  return answer(api.POST('/api/v2/varsets/{id}/actions/preview', { params: { path: { id } }, body }));
}

/** The same for a new set of `organization`. */
export function previewNewSet(
  organization: string,
  body: Body<'/api/v2/organizations/{organization}/varsets/actions/preview', 'post'>,
): Promise<ImpactDocument> {
  return answer(
    api.POST('/api/v2/organizations/{organization}/varsets/actions/preview', {
      params: { path: { organization } },
      body,
    }),
  );
}

/** Workspaces listed before the rest is folded behind "Show N more". */
const SHOWN_WORKSPACES = 5;

const workspacesCount = (n: number) => `${n} workspace${n === 1 ? '' : 's'}`;

function Value({ value }: { value: ImpactValue }) {
  if (value.sensitive) return <em>(sensitive)</em>;
  // Null without being sensitive: a workspace whose variables the token may not read.
  if (value.value === null) return <em>(hidden)</em>;
  return <code>{JSON.stringify(value.value)}</code>;
}

/** The name of the set a new set's preview is of: the id the preview gave it is no page, so it is not linked. */
const UnsavedSet = createContext<string | undefined>(undefined);

function SetLink({ value }: { value: ImpactValue }) {
  const set = value.source.varset!;
  const unsaved = useContext(UnsavedSet);
  return <>set {set.name === unsaved ? set.name : <Link to={`/varsets/${set.id}`}>{set.name}</Link>}</>;
}

/** Where a value comes from: "set defaults", or "its own variable". */
function From({ value }: { value: ImpactValue }) {
  return value.source.varset ? <SetLink value={value} /> : <>its own variable</>;
}

/** How the winner's source moves, or null when it stays. */
function sourceMove(before: ImpactValue, after: ImpactValue, workspace: string, key: ReactNode): ReactNode {
  const was = before.source.varset;
  const now = after.source.varset;
  if (!was && now)
    return (
      <>
        {workspace}'s own value of {key} is now overridden by <SetLink value={after} />
      </>
    );
  if (was && !now)
    return (
      <>
        <SetLink value={before} /> no longer overrides {workspace}'s own value of {key}
      </>
    );
  if (was && now && was.id !== now.id)
    return (
      <>
        now from <SetLink value={after} /> instead of <SetLink value={before} />
      </>
    );
  if (was && now)
    return (
      <>
        from <SetLink value={after} />, now at level {after.source.precedence} instead of {before.source.precedence}
      </>
    );
  return null;
}

/** One change in words: `region`: "eu" → "us" (now from set X instead of set Y); gets `token` (sensitive); stops getting `zone`. */
function ChangeWords({ change, workspace }: { change: ImpactChange; workspace: string }) {
  const key = (
    <>
      <code>{change.key}</code>
      {change.category === 'env' ? ' (env)' : ''}
    </>
  );
  const { before, after } = change;
  if (change.action === 'added') {
    return after!.sensitive ? (
      <>
        gets {key} (sensitive), from <From value={after!} />
      </>
    ) : (
      <>
        gets {key} = <Value value={after!} />, from <From value={after!} />
      </>
    );
  }
  if (change.action === 'removed')
    return (
      <>
        stops getting {key} (was <Value value={before!} />, from <From value={before!} />)
      </>
    );
  const notes: ReactNode[] = [];
  if (change.fields.includes('source')) notes.push(sourceMove(before!, after!, workspace, key));
  if (change.fields.includes('sensitive')) notes.push(after!.sensitive ? 'now sensitive' : 'no longer sensitive');
  if (change.fields.includes('hcl')) notes.push(after!.hcl ? 'now HCL' : 'no longer HCL');
  const joined = notes.filter(Boolean).map((note, i) => (
    <span key={i}>
      {i > 0 && '; '}
      {note}
    </span>
  ));
  // A value moving between the workspace's own and a set's is a sentence that names the key already.
  const namesKey = change.fields.includes('source') && !before!.source.varset !== !after!.source.varset;
  if (!change.fields.includes('value'))
    return namesKey ? (
      <>{joined}</>
    ) : (
      <>
        {key}: {joined}
      </>
    );
  return (
    <>
      {key}: <Value value={before!} /> → <Value value={after!} />
      {joined.length > 0 && <> ({joined})</>}
    </>
  );
}

function Impact({ impact }: { impact: WorkspaceImpact }) {
  const name = impact.attributes['workspace-name'];
  return (
    <li>
      <Link to={`/workspaces/${impact.id}`}>{name}</Link>
      {!impact.attributes['variables-readable'] && <span className="muted"> (this token may not read its values)</span>}
      <ul>
        {impact.attributes.changes.map((change) => (
          <li key={`${change.category}:${change.key}`}>
            <ChangeWords change={change} workspace={name} />
          </li>
        ))}
      </ul>
    </li>
  );
}

/** What the preview answered: how many workspaces are affected, the set's reach before and after, and the first page of impacts. */
export function ImpactSummary({ preview, unsavedSet }: { preview: ImpactDocument; unsavedSet?: string | undefined }) {
  const [unfolded, setUnfolded] = useState(false);
  const total = preview.meta.pagination['total-count'];
  const reachedBefore = preview.meta['workspaces-reached-before'];
  const reachedAfter = preview.meta['workspaces-reached-after'];
  const impacts = preview.data;
  const shown = unfolded ? impacts : impacts.slice(0, SHOWN_WORKSPACES);
  const unlisted = total - impacts.length;
  return (
    <UnsavedSet.Provider value={unsavedSet}>
      <p>
        <strong>{total === 0 ? 'No workspace affected' : `${workspacesCount(total)} affected`}</strong>
        {total === 0 ? ': no run would get another value.' : '.'}{' '}
        {reachedBefore === reachedAfter
          ? `The set reaches ${workspacesCount(reachedAfter)}, before and after.`
          : `The set reaches ${workspacesCount(reachedBefore)} before, ${reachedAfter} after.`}
      </p>
      {impacts.length > 0 && (
        <ul className="impacts" aria-label="Affected workspaces">
          {shown.map((impact) => (
            <Impact key={impact.id} impact={impact} />
          ))}
        </ul>
      )}
      {impacts.length > SHOWN_WORKSPACES && (
        <button type="button" className="small" aria-expanded={unfolded} onClick={() => setUnfolded(!unfolded)}>
          {unfolded ? 'Show fewer' : `Show ${impacts.length - SHOWN_WORKSPACES} more`}
        </button>
      )}
      {unlisted > 0 && <p className="muted">…and {workspacesCount(unlisted)} more, not listed here.</p>}
    </UnsavedSet.Provider>
  );
}

/**
 * A write's confirmation showing its preview (asked for while it is open, or before): Confirm
 * makes the write, Cancel writes nothing. A refused preview is shown, with no Confirm.
 */
export function ImpactDialog({
  open,
  title,
  confirmLabel = 'Confirm',
  unsavedSet,
  preview,
  error,
  busy,
  onConfirm,
  onCancel,
  destructive = false,
}: {
  open: boolean;
  title: string;
  confirmLabel?: string;
  /** For a new set: its name. */
  unsavedSet?: string;
  preview: ImpactDocument | undefined;
  error?: unknown;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** A deletion opens on Cancel; a save, on its Confirm. */
  destructive?: boolean;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={confirmLabel}
      busy={busy}
      onCancel={onCancel}
      focusConfirm={!destructive}
      {...(preview ? { onConfirm } : {})}
    >
      {open && !preview && !error && <p>Working out which workspaces this changes…</p>}
      {preview && <ImpactSummary preview={preview} unsavedSet={unsavedSet} />}
      <FormError error={error} fields={[]} />
    </ConfirmDialog>
  );
}
