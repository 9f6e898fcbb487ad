import { useRef, useState, type ReactElement, type SyntheticEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answer, answerWithRequestId, api } from '../api/client';
import { useOrganization, useVarset } from '../api/hooks';
import { varsetChanged } from '../api/invalidate';
import { includedPlaces, related, relatedIds, type Varset } from '../api/types';
import { describedBy, FieldError, FormError, LoadError, useFocusFirstInvalid } from '../components/errors';
import { useAnnounce, useOrganizationInNav } from '../components/frame';
import { setSaved } from '../components/changes';
import { useAskBeforeLeaving } from '../components/leaving';
import { Picker, type Picked } from '../components/Picker';
import { ImpactDialog, previewNewSet, previewWrite } from '../components/ImpactPreview';
import { NewVariables, VARS_POINTER, type NewVariable } from '../components/NewVariables';
import { undoFor } from '../components/Undo';

const ATTRIBUTE = (name: string) => `/data/attributes/${name}`;
const RELATIONSHIP = (name: string) => `/data/relationships/${name}`;
const FIELDS = [
  ...['name', 'description', 'global', 'priority'].map(ATTRIBUTE),
  ...['workspaces', 'projects', 'parent'].map(RELATIONSHIP),
];

/** A new set of the organization in the URL, for a token whose organization `permissions` allow it. */
export function VarsetNew() {
  const org = useParams().org!;
  const organization = useOrganization(org);
  const list = `/organizations/${encodeURIComponent(org)}/varsets`;
  return (
    <>
      <h1 tabIndex={-1}>New variable set in {org}</h1>
      {organization.error ? (
        <LoadError error={organization.error} what="organization" />
      ) : organization.isPending ? (
        <p>Loading…</p>
      ) : !organization.data.data.attributes.permissions['can-manage-varsets'] ? (
        <Refused back={list} backLabel={`Variable sets of ${org}`}>
          This token may not create variable sets in {org}.
        </Refused>
      ) : (
        <VarsetFields org={org} />
      )}
    </>
  );
}

/** In place of a form the token may not use: what it may not do, and the way back. */
function Refused({ back, backLabel, children }: { back: string; backLabel: string; children: ReactNode }) {
  return (
    <>
      <p className="notice">{children}</p>
      <p>
        <Link to={back}>{backLabel}</Link>
      </p>
    </>
  );
}

/** Changes a set: its name, description, priority and scope. */
export function VarsetEdit() {
  const id = useParams().id!;
  const varset = useVarset(id);
  useOrganizationInNav(varset.data ? related(varset.data.data, 'organization')?.id : undefined);
  if (varset.error) return <LoadError error={varset.error} what="variable set" />;
  if (varset.isPending) return <p>Loading…</p>;
  const set = varset.data.data;
  const names = new Map(includedPlaces(varset.data).map((r) => [r.id, r.attributes.name]));
  const picked = (ids: string[]) => ids.map((i) => ({ id: i, name: names.get(i) ?? i }));
  if (!set.attributes.permissions['can-update']) {
    return (
      <>
        <h1 tabIndex={-1}>Edit {set.attributes.name}</h1>
        <Refused back={`/varsets/${id}`} backLabel={`Back to ${set.attributes.name}`}>
          This token may not change or delete the variable set {set.attributes.name}: it may only read it.
        </Refused>
      </>
    );
  }
  return (
    <>
      <h1 tabIndex={-1}>Edit {set.attributes.name}</h1>
      <VarsetFields
        org={related(set, 'organization')!.id}
        varset={set}
        initialProjects={picked(relatedIds(set, 'projects'))}
        initialWorkspaces={picked(relatedIds(set, 'workspaces'))}
      />
    </>
  );
}

const idsOf = (picked: Picked[]) => picked.map((p) => p.id).join(' ');

function VarsetFields({
  org,
  varset,
  initialProjects = [],
  initialWorkspaces = [],
}: {
  org: string;
  varset?: Varset;
  initialProjects?: Picked[];
  initialWorkspaces?: Picked[];
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const initial = varset?.attributes;
  const [name, setName] = useState(initial?.name ?? '');
  const form = useRef<HTMLFormElement>(null);
  const [description, setDescription] = useState(initial?.description ?? '');
  const [priority, setPriority] = useState(initial?.priority ?? false);
  const [global, setGlobal] = useState(initial?.global ?? false);
  const [projects, setProjects] = useState<Picked[]>(initialProjects);
  const [workspaces, setWorkspaces] = useState<Picked[]>(initialWorkspaces);
  const [owner, setOwner] = useState<Picked[]>([]);
  const [variables, setVariables] = useState<NewVariable[]>([]);
  const announce = useAnnounce();
  useAskBeforeLeaving(
    name !== (initial?.name ?? '') ||
      description !== (initial?.description ?? '') ||
      priority !== (initial?.priority ?? false) ||
      global !== (initial?.global ?? false) ||
      idsOf(projects) !== idsOf(initialProjects) ||
      idsOf(workspaces) !== idsOf(initialWorkspaces) ||
      owner.length > 0 ||
      variables.length > 0,
  );
  const body = () => {
    const members = <T extends string>(type: T, picked: Picked[]) => ({
      data: picked.map((p) => ({ type, id: p.id })),
    });
    const relationships = {
      ...(global ? {} : { projects: members('projects', projects), workspaces: members('workspaces', workspaces) }),
      ...(!varset && owner[0] ? { parent: { data: { type: 'projects' as const, id: owner[0].id } } } : {}),
      ...(!varset && variables.length
        ? { vars: { data: variables.map((attributes) => ({ type: 'vars' as const, attributes })) } }
        : {}),
    };
    return { data: { type: 'varsets' as const, attributes: { name, description, priority, global }, relationships } };
  };
  type Sent = ReturnType<typeof body>;
  const orgVarsets = `/organizations/${encodeURIComponent(org)}/varsets`;
  // Saving first asks what the write would change; the dialog showing it makes the write on Confirm.
  // Both take the document built at submit: the write is the one previewed, and an error is about what was sent.
  const check = useMutation({
    mutationFn: (sent: Sent) => (varset ? previewWrite(varset.id, sent) : previewNewSet(org, sent)),
  });
  const save = useMutation({
    mutationFn: async (sent: Sent): Promise<{ data: Varset; undo?: ReactElement | undefined }> => {
      if (!varset)
        return answer(
          api.POST('/api/v2/organizations/{organization}/varsets', {
            params: { path: { organization: org } },
            body: sent,
          }),
        );
      const { data, requestId } = await answerWithRequestId(
        api.PATCH('/api/v2/varsets/{id}', { params: { path: { id: varset.id } }, body: sent }),
      );
      return { data: data.data, undo: await undoFor(varset.id, requestId) };
    },
    onSuccess: async (document) => {
      await varsetChanged(client, varset?.id ?? null);
      const page = `/varsets/${document.data.id}`;
      const after = { name, description, priority, global, projects, workspaces };
      const created = `Set ${name} created${variables.length ? ` with ${variables.length === 1 ? 'one variable' : `${variables.length} variables`}` : ''}`;
      announce(
        initial ? setSaved({ ...initial, projects: initialProjects, workspaces: initialWorkspaces }, after) : created,
        page,
        document.undo,
      );
      void navigate(page); // a promise only under a data router, which this app does not use
    },
    // A write refused after all (something changed since the preview) is shown in the form, like a refused preview.
    onError: () => check.reset(),
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    save.reset();
    check.mutate(body());
  };
  const error = check.error ?? save.error;
  useFocusFirstInvalid(form, error);
  const errorId = (pointer: string) => `error-${pointer.split('/').pop()}`;
  // An error about the name is about the name sent: it goes once the name is changed.
  const sentName = (check.variables ?? save.variables)?.data.attributes.name;
  const errorAt = (pointer: string) => (pointer === ATTRIBUTE('name') && name !== sentName ? null : error);
  const props = (pointer: string) => describedBy(errorAt(pointer), pointer, errorId(pointer));
  const fieldError = (pointer: string) => (
    <FieldError error={errorAt(pointer)} pointer={pointer} id={errorId(pointer)} />
  );
  return (
    <form
      ref={form}
      className="varset-form"
      onSubmit={submit}
      aria-label={varset ? 'Edit variable set' : 'New variable set'}
    >
      <div className="field">
        <label htmlFor="varset-name">Name</label>
        <input id="varset-name" value={name} onChange={(e) => setName(e.target.value)} {...props(ATTRIBUTE('name'))} />
        {fieldError(ATTRIBUTE('name'))}
      </div>
      <div className="field">
        <label htmlFor="varset-description">Description</label>
        <textarea
          id="varset-description"
          rows={2}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          {...props(ATTRIBUTE('description'))}
        />
        {fieldError(ATTRIBUTE('description'))}
      </div>
      <div className="field inline">
        <label>
          <input
            type="checkbox"
            checked={priority}
            onChange={(e) => setPriority(e.target.checked)}
            {...props(ATTRIBUTE('priority'))}
          />{' '}
          Priority: its values win over workspace variables and run variables
        </label>
        {fieldError(ATTRIBUTE('priority'))}
      </div>
      <fieldset className="field" {...props(ATTRIBUTE('global'))}>
        <legend>Scope</legend>
        <label>
          <input type="radio" name="scope" checked={global} onChange={() => setGlobal(true)} /> Global: every workspace
          of the organization
        </label>
        <label>
          <input type="radio" name="scope" checked={!global} onChange={() => setGlobal(false)} /> Chosen projects and
          workspaces
        </label>
        {fieldError(ATTRIBUTE('global'))}
      </fieldset>
      {!global && (
        <>
          <Picker
            org={org}
            kind="projects"
            label="Projects"
            selected={projects}
            onChange={setProjects}
            errorProps={props(RELATIONSHIP('projects'))}
          />
          {fieldError(RELATIONSHIP('projects'))}
          <Picker
            org={org}
            kind="workspaces"
            label="Workspaces"
            selected={workspaces}
            onChange={setWorkspaces}
            errorProps={props(RELATIONSHIP('workspaces'))}
          />
          {fieldError(RELATIONSHIP('workspaces'))}
        </>
      )}
      {!varset && (
        <>
          <Picker
            org={org}
            kind="projects"
            label="Owned by a project (optional; otherwise by the organization)"
            selected={owner}
            onChange={setOwner}
            single
            errorProps={props(RELATIONSHIP('parent'))}
          />
          {fieldError(RELATIONSHIP('parent'))}
          <NewVariables variables={variables} onChange={setVariables} error={error} />
        </>
      )}
      {/* An error about one of the new variables is shown with it; one about them all, here. */}
      <FormError error={error} fields={[...FIELDS, ...variables.map((_, i) => `${VARS_POINTER}/data/${i}`)]} />
      <div className="actions">
        <button type="submit" disabled={check.isPending || save.isPending}>
          {varset ? 'Save set' : 'Create set'}
        </button>
        <Link to={varset ? `/varsets/${varset.id}` : orgVarsets}>Cancel</Link>
      </div>
      <ImpactDialog
        open={check.data !== undefined}
        title={varset ? `Save ${varset.attributes.name}?` : `Create set ${name}?`}
        preview={check.data}
        {...(varset ? {} : { unsavedSet: name })}
        busy={save.isPending}
        onConfirm={() => check.variables && save.mutate(check.variables)}
        onCancel={() => check.reset()}
      />
    </form>
  );
}
