import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/queryKeys';
import type { Category, Variable } from '../api/types';
import { deleteVariable, saveVariable, useVariables, variablesChanged, type VariableOwner } from '../api/variables';
import { ConfirmDialog } from './ConfirmDialog';
import { describedBy, FieldError, FormError, useFocusFirstInvalid } from './errors';
import { ImpactDialog, previewWrite } from './ImpactPreview';
import { Pager } from './Pager';
import { variableSaved } from './changes';
import { useAnnounce } from './frame';
import { undoFor } from './Undo';
import { useAskBeforeLeaving } from './leaving';

const FIELDS = ['key', 'value', 'category', 'hcl', 'sensitive', 'description'].map((f) => `/data/attributes/${f}`);

/**
 * The variables of a set or a workspace. A sensitive value is never shown; it can be replaced.
 * A set's are listed a page at a time, and each write to them is previewed and made once confirmed.
 */
/** The id of the heading of an owner's variables, which other parts of the page link to. */
export const variablesTitleId = (owner: VariableOwner) => `${owner.kind}-${owner.id}-variables-title`;

export function VariableEditor({
  owner,
  canWrite,
  title,
  addOnDemand = false,
  overriddenBy,
}: {
  owner: VariableOwner;
  canWrite: boolean;
  title: string;
  addOnDemand?: boolean;
  /** A workspace's: what overrides each of its own variables that loses (by `category:key`), as the effective variables say. */
  overriddenBy?: Map<string, ReactNode>;
}) {
  const ofSet = owner.kind === 'varsets';
  const titleId = variablesTitleId(owner);
  const [page, setPage] = useState(1);
  // With `addOnDemand`, the form to add a variable opens from a button.
  const [adding, setAdding] = useState(!addOnDemand);
  const addButton = useRef<HTMLButtonElement>(null);
  const closed = useRef(false);
  useEffect(() => {
    // Closing the form gives focus back to the button that opened it.
    if (!adding && closed.current) addButton.current?.focus();
  }, [adding]);
  const list = useVariables(owner, ofSet ? page : undefined);
  // The list is sorted by key: the row written is brought into view once the list read again shows it.
  const [reveal, setReveal] = useState<string | null>(null);
  useEffect(() => {
    const row = reveal && document.querySelector(`[data-variable="${CSS.escape(reveal)}"]`);
    if (!row) return;
    row.scrollIntoView({ block: 'center' });
    setReveal(null);
  }, [reveal, list.data]);
  const [editing, setEditing] = useState<string | null>(null);
  const edited = useRef<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // An inline edit closed (saved, cancelled, Escape) gives focus back to its Edit button.
    if (editing === null && edited.current)
      document.querySelector<HTMLElement>(`[data-edits="${edited.current}"]`)?.focus();
    edited.current = editing;
  }, [editing]);
  const [deleting, setDeleting] = useState<Variable | null>(null);
  const client = useQueryClient();
  const announce = useAnnounce();
  const remove = useMutation({
    mutationFn: async (variable: Variable) => {
      const requestId = await deleteVariable(owner, variable.id);
      return ofSet ? undoFor(owner.id, requestId) : undefined;
    },
    onSuccess: async (undo, variable) => {
      setDeleting(null);
      announce(`Variable ${variable.attributes.key} deleted`, undefined, undo);
      // Its deletion's preview is of a variable that is gone: not asked again when the set's reads are.
      client.removeQueries({ queryKey: queryKeys.varsets.deletionPreview(owner.id, variable.id) });
      await variablesChanged(client, owner);
      // Its row and its Delete button are gone: focus stays in the list's section.
      heading.current?.focus();
    },
  });
  const deletion = useQuery({
    queryKey: queryKeys.varsets.deletionPreview(owner.id, deleting?.id ?? ''),
    queryFn: () => previewWrite(owner.id, { data: { type: 'vars', id: deleting!.id }, meta: { action: 'delete' } }),
    enabled: ofSet && deleting !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const variables = list.data?.data ?? [];
  const pagination = list.data && 'meta' in list.data ? list.data.meta.pagination : undefined;
  return (
    <section aria-labelledby={titleId} className="variables">
      <h2 id={titleId} tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {list.isPending ? (
        <p>Loading variables…</p>
      ) : variables.length === 0 ? (
        <p className="muted">No variables.</p>
      ) : (
        <ul className="variable-list">
          {variables.map((variable) =>
            editing === variable.id ? (
              <li key={variable.id}>
                <VariableForm
                  owner={owner}
                  variable={variable}
                  onDone={() => setEditing(null)}
                  onSaved={setReveal}
                  overriddenBy={overriddenBy?.get(`${variable.attributes.category}:${variable.attributes.key}`)}
                />
              </li>
            ) : (
              <li
                key={variable.id}
                className="variable"
                data-variable={`${variable.attributes.category}:${variable.attributes.key}`}
              >
                <div className="variable-head">
                  <code className="key">{variable.attributes.key}</code>
                  <span className="badge">{variable.attributes.category === 'env' ? 'env' : 'terraform'}</span>
                  {variable.attributes.hcl && <span className="badge">HCL</span>}
                  {variable.attributes.sensitive && <span className="badge sensitive">Sensitive</span>}
                  {variable.attributes['value-needed'] && <span className="badge sensitive">Needs a value</span>}
                  {overriddenBy?.has(`${variable.attributes.category}:${variable.attributes.key}`) && (
                    <span className="badge overwritten">Overwritten</span>
                  )}
                </div>
                {overriddenBy?.has(`${variable.attributes.category}:${variable.attributes.key}`) && (
                  <p className="warning">
                    Overwritten by {overriddenBy.get(`${variable.attributes.category}:${variable.attributes.key}`)}:
                    runs get its value, not this one.
                  </p>
                )}
                <div className="value">
                  {variable.attributes['value-needed'] ? (
                    <em>Needs a value: it was imported without one, and no run can use it until one is given</em>
                  ) : variable.attributes.sensitive ? (
                    <em>Sensitive: write-only, never shown</em>
                  ) : (
                    <code>{variable.attributes.value}</code>
                  )}
                </div>
                {variable.attributes.description && <p className="muted">{variable.attributes.description}</p>}
                {canWrite && (
                  <div className="actions">
                    <button
                      type="button"
                      className="small"
                      onClick={() => setEditing(variable.id)}
                      aria-label={`Edit ${variable.attributes.key}`}
                      data-edits={variable.id}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="small danger"
                      onClick={() => setDeleting(variable)}
                      aria-label={`Delete ${variable.attributes.key}`}
                    >
                      Delete
                    </button>
                  </div>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {pagination && pagination['total-pages'] > 1 && (
        <Pager pagination={pagination} onPage={setPage} label="Variables" />
      )}
      {canWrite && !adding && (
        <button type="button" className="add-variable" ref={addButton} onClick={() => setAdding(true)}>
          Add a variable
        </button>
      )}
      {canWrite && adding && (
        <VariableForm
          owner={owner}
          onDone={() => undefined}
          onSaved={setReveal}
          {...(addOnDemand ? { onClose: () => ((closed.current = true), setAdding(false)) } : {})}
        />
      )}
      {ofSet ? (
        <ImpactDialog
          open={deleting !== null}
          title={`Delete variable ${deleting?.attributes.key ?? ''}?`}
          confirmLabel="Delete variable"
          destructive
          preview={deletion.data}
          error={deletion.error ?? remove.error}
          busy={remove.isPending}
          onCancel={() => (setDeleting(null), remove.reset())}
          onConfirm={() => deleting && remove.mutate(deleting)}
        />
      ) : (
        <ConfirmDialog
          open={deleting !== null}
          title={`Delete variable ${deleting?.attributes.key ?? ''}?`}
          confirmLabel="Delete variable"
          busy={remove.isPending}
          onCancel={() => (setDeleting(null), remove.reset())}
          onConfirm={() => deleting && remove.mutate(deleting)}
        >
          <p>Runs from now on no longer get this value.</p>
          <FormError error={remove.error} fields={[]} />
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Adds a variable, or changes `variable`. */
function VariableForm({
  owner,
  variable,
  onDone,
  onSaved,
  onClose,
  overriddenBy,
}: {
  owner: VariableOwner;
  variable?: Variable;
  onDone: () => void;
  /** Told the category and key of the variable written. */
  onSaved: (row: string) => void;
  onClose?: () => void;
  /** What overrides the variable edited, if anything does: a change of it has no effect on runs. */
  overriddenBy?: ReactNode;
}) {
  const id = useId();
  const initial = variable?.attributes;
  const [key, setKey] = useState(initial?.key ?? '');
  const [value, setValue] = useState(initial?.sensitive ? '' : (initial?.value ?? ''));
  const [category, setCategory] = useState<Category>(initial?.category ?? 'terraform');
  const [hcl, setHcl] = useState(initial?.hcl ?? false);
  const [sensitive, setSensitive] = useState(initial?.sensitive ?? false);
  const [description, setDescription] = useState(initial?.description ?? '');
  const client = useQueryClient();
  const announce = useAnnounce();
  useAskBeforeLeaving(
    key !== (initial?.key ?? '') ||
      value !== (initial?.sensitive ? '' : (initial?.value ?? '')) ||
      description !== (initial?.description ?? ''),
  );
  // The server refuses to change a sensitive variable's key or HCL flag, or to make it readable again.
  const locked = initial?.sensitive === true;
  const write = () => {
    // A sensitive value left empty keeps the stored one; anything typed replaces it.
    const keepValue = initial?.sensitive && value === '';
    const attributes = { key, category, hcl, sensitive, description, ...(keepValue ? {} : { value }) };
    return {
      attributes,
      body: { data: { type: 'vars' as const, ...(variable ? { id: variable.id } : {}), attributes } },
    };
  };
  const check = useMutation({ mutationFn: () => previewWrite(owner.id, write().body) });
  const save = useMutation({
    mutationFn: async () => {
      const { attributes, body } = write();
      const requestId = await saveVariable(owner, variable?.id, body);
      const undo = owner.kind === 'varsets' ? await undoFor(owner.id, requestId) : undefined;
      return { message: initial ? variableSaved(initial, attributes) : `Variable ${key} added`, undo };
    },
    onSuccess: async ({ message, undo }) => {
      check.reset();
      announce(message, undefined, undo);
      // The form lets go of what was typed (a secret, say) as soon as it is saved, before the list is read again.
      if (!variable) {
        setKey('');
        setValue('');
        setDescription('');
        setHcl(false);
        setSensitive(false);
      }
      await variablesChanged(client, owner);
      onDone();
      onSaved(`${category}:${key}`);
    },
    onError: () => check.reset(),
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    save.reset();
    if (owner.kind === 'varsets') check.mutate();
    else save.mutate();
  };
  const error = check.error ?? save.error;
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, error);
  // Escape leaves an inline edit as Cancel does; in the preview's dialog it closes the dialog only.
  const escape = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Escape' && variable && !(event.target as Element).closest('dialog')) onDone();
  };
  const field = (name: string) => ({ pointer: `/data/attributes/${name}`, id: `${id}-${name}-error` });
  const err = (name: string) => describedBy(error, field(name).pointer, field(name).id);
  return (
    <form
      ref={form}
      className="variable-form"
      onSubmit={submit}
      onKeyDown={escape}
      aria-label={variable ? `Edit variable ${initial?.key}` : 'Add a variable'}
    >
      <h3>{variable ? `Edit ${initial?.key}` : 'Add a variable'}</h3>
      {overriddenBy && (
        <p className="warning">
          Saving changes no run: {overriddenBy} overrides this variable, and runs get its value.
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-key`}>Key</label>
        <input
          id={`${id}-key`}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          disabled={locked}
          autoFocus={onClose !== undefined}
          {...err('key')}
        />
        <FieldError error={error} {...field('key')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-value`}>Value</label>
        <textarea
          id={`${id}-value`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          rows={2}
          spellCheck={false}
          placeholder={
            initial?.sensitive ? 'Sensitive: leave empty to keep the stored value, or type a new one' : undefined
          }
          {...err('value')}
        />
        <FieldError error={error} {...field('value')} />
      </div>
      <fieldset className="field inline" {...err('category')}>
        <legend>Category</legend>
        <label>
          <input
            type="radio"
            name={`${id}-category`}
            checked={category === 'terraform'}
            onChange={() => setCategory('terraform')}
          />{' '}
          Terraform variable
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-category`}
            checked={category === 'env'}
            onChange={() => setCategory('env')}
          />{' '}
          Environment variable
        </label>
        <FieldError error={error} {...field('category')} />
      </fieldset>
      <div className="field inline">
        <label>
          <input
            type="checkbox"
            checked={hcl}
            onChange={(e) => setHcl(e.target.checked)}
            disabled={locked}
            {...err('hcl')}
          />{' '}
          HCL (the value is an expression)
        </label>
        <FieldError error={error} {...field('hcl')} />
        <label>
          <input
            type="checkbox"
            checked={sensitive}
            onChange={(e) => setSensitive(e.target.checked)}
            disabled={locked}
            {...err('sensitive')}
          />{' '}
          Sensitive (write-only)
        </label>
        <FieldError error={error} {...field('sensitive')} />
        {locked && (
          <p className="muted locked-note">
            A sensitive variable stays sensitive, and keeps its key and HCL flag: to change them, delete it and add it
            again.
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <input
          id={`${id}-description`}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          {...err('description')}
        />
        <FieldError error={error} {...field('description')} />
      </div>
      <FormError error={error} fields={FIELDS} />
      <div className="actions">
        <button type="submit" disabled={check.isPending || save.isPending}>
          {variable ? 'Save variable' : 'Add variable'}
        </button>
        {variable && (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        )}
        {onClose && (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
      <ImpactDialog
        open={check.data !== undefined}
        title={variable ? `Save variable ${initial?.key}?` : `Add variable ${key}?`}
        preview={check.data}
        busy={save.isPending}
        onConfirm={() => save.mutate()}
        onCancel={() => check.reset()}
      />
    </form>
  );
}
