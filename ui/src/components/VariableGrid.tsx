import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer, answerWithRequestId, api } from '../api/client';
import { varsetChanged } from '../api/invalidate';
import { queryKeys } from '../api/queryKeys';
import type { Body, Category, Variable } from '../api/types';
import { describedBy, FieldError, FormError, useFocusFirstInvalid } from './errors';
import { ImpactDialog, previewWrite } from './ImpactPreview';
import { useAnnounce } from './frame';
import { useAskBeforeLeaving } from './leaving';
import { undoFor } from './Undo';
import { parsePasted, type PasteFormat, type PastedVariable, type PasteProblem } from './pasted';

type Writes = Body<'/api/v2/varsets/{id}/actions/write-variables', 'post'>;
type Write = Writes['data'][number];

interface Row {
  uid: number;
  /** The variable the row shows; none for a new row. */
  variable?: Variable;
  key: string;
  value: string;
  category: Category;
  hcl: boolean;
  sensitive: boolean;
  description: string;
  removed: boolean;
}

const FIELDS = ['key', 'value', 'category', 'hcl', 'sensitive', 'description'] as const;
let uids = 0;

const rowOf = (variable: Variable): Row => ({
  uid: ++uids,
  variable,
  key: variable.attributes.key,
  // A sensitive value is write-only: its cell starts empty, and empty keeps the stored one.
  value: variable.attributes.sensitive ? '' : (variable.attributes.value ?? ''),
  category: variable.attributes.category,
  hcl: variable.attributes.hcl,
  sensitive: variable.attributes.sensitive,
  description: variable.attributes.description,
  removed: false,
});

const newRow = (pasted?: PastedVariable): Row => ({
  uid: ++uids,
  key: pasted?.key ?? '',
  value: pasted?.value ?? '',
  category: pasted?.category ?? 'terraform',
  hcl: pasted?.hcl ?? false,
  sensitive: false,
  description: '',
  removed: false,
});

/** What a row changes, as one member of the write (null: nothing). */
function writeOf(row: Row): Write | null {
  const { variable } = row;
  if (!variable) {
    const { key, value, category, hcl, sensitive, description } = row;
    return { type: 'vars', attributes: { key, value, category, hcl, sensitive, description } };
  }
  if (row.removed) return { type: 'vars', id: variable.id, meta: { action: 'delete' } };
  const was = rowOf(variable);
  const attributes: Record<string, unknown> = {};
  for (const field of FIELDS) if (row[field] !== was[field]) attributes[field] = row[field];
  // An empty sensitive value keeps the stored one.
  if (row.sensitive && variable.attributes.sensitive && row.value === '') delete attributes.value;
  return Object.keys(attributes).length ? { type: 'vars', id: variable.id, attributes } : null;
}

/** Every variable of the set, all pages of them. */
async function allVariables(id: string): Promise<Variable[]> {
  const all: Variable[] = [];
  for (let page = 1; ; page++) {
    const list = await answer(
      api.GET('/api/v2/varsets/{id}/relationships/vars', {
        params: { path: { id }, query: { 'page[number]': String(page), 'page[size]': '100' } },
      }),
    );
    all.push(...list.data);
    if (list.meta.pagination['next-page'] == null) return all;
  }
}

/**
 * A set's variables as rows, edited inline, with rows added, pasted (.env or HCL) and removed:
 * one preview of all of it, and one save, which makes one version.
 */
export default function VariableGrid({ varsetId, onClose }: { varsetId: string; onClose: () => void }) {
  const id = useId();
  const loaded = useQuery({
    queryKey: [...queryKeys.varsets.of(varsetId), 'grid'],
    queryFn: () => allVariables(varsetId),
    staleTime: Infinity,
    gcTime: 0,
  });
  const [rows, setRows] = useState<Row[] | null>(null);
  useEffect(() => {
    if (loaded.data && rows === null) setRows(loaded.data.map(rowOf));
  }, [loaded.data, rows]);
  const shown = rows ?? [];
  const writes = shown.map((row) => ({ row, write: writeOf(row) })).filter((w) => w.write !== null);
  useAskBeforeLeaving(writes.length > 0);
  const client = useQueryClient();
  const announce = useAnnounce();
  const body = (): Writes => ({ data: writes.map((w) => w.write!) });
  const check = useMutation({ mutationFn: () => previewWrite(varsetId, body()) });
  const save = useMutation({
    mutationFn: async () => {
      const { data, requestId } = await answerWithRequestId(
        api.POST('/api/v2/varsets/{id}/actions/write-variables', { params: { path: { id: varsetId } }, body: body() }),
      );
      return { version: data.meta.version, undo: await undoFor(varsetId, requestId) };
    },
    onSuccess: async ({ version, undo }) => {
      announce(
        version ? `Variables saved as version ${version.number}` : 'Nothing to save: the variables are as they were',
        undefined,
        undo,
      );
      setRows(null);
      await varsetChanged(client, varsetId);
      onClose();
    },
    onError: () => check.reset(),
  });
  const error = check.error ?? save.error;
  // Errors point at /data/<n>/…: the nth write, whose row is known.
  const writePointers = writes.map((_, n) => `/data/${n}`);
  const pointerOf = (row: Row) => {
    const n = writes.findIndex((w) => w.row.uid === row.uid);
    return n < 0 ? undefined : writePointers[n];
  };
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, error);
  const change = (uid: number, changes: Partial<Row>) => {
    check.reset();
    save.reset();
    setRows((current) => (current ?? []).map((r) => (r.uid === uid ? { ...r, ...changes } : r)));
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    save.reset();
    check.mutate();
  };
  if (loaded.error) return <FormError error={loaded.error} fields={[]} />;
  if (rows === null) return <p>Loading variables…</p>;
  return (
    <form ref={form} className="variable-grid" onSubmit={submit} aria-label="Edit variables as a grid">
      <table>
        <caption className="muted">
          Each row is a variable. A sensitive value is write-only: leave it empty to keep the stored one.
        </caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
            <th scope="col">Category</th>
            <th scope="col">HCL</th>
            <th scope="col">Sensitive</th>
            <th scope="col">Description</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, n) => (
            <GridRow
              key={row.uid}
              row={row}
              label={`row ${n + 1}${row.key ? ` (${row.key})` : ''}`}
              idBase={`${id}-${row.uid}`}
              error={error}
              pointer={pointerOf(row)}
              onChange={(changes) => change(row.uid, changes)}
              onRemove={() =>
                row.variable
                  ? change(row.uid, { removed: !row.removed })
                  : (check.reset(), setRows(rows.filter((r) => r.uid !== row.uid)))
              }
            />
          ))}
        </tbody>
      </table>
      <div className="actions">
        <button type="button" onClick={() => (check.reset(), setRows([...rows, newRow()]))}>
          Add a row
        </button>
      </div>
      <PasteBox onRows={(pasted) => (check.reset(), setRows([...rows, ...pasted.map(newRow)]))} />
      <FormError error={error} fields={writePointers} />
      <div className="actions">
        <button type="submit" disabled={writes.length === 0 || check.isPending || save.isPending}>
          Review changes{writes.length ? ` (${writes.length})` : ''}
        </button>
        <button type="button" onClick={onClose}>
          Leave the grid
        </button>
      </div>
      <ImpactDialog
        open={check.data !== undefined}
        title={`Save ${writes.length} change${writes.length === 1 ? '' : 's'} to the variables?`}
        confirmLabel="Save"
        preview={check.data}
        busy={save.isPending}
        onConfirm={() => save.mutate()}
        onCancel={() => check.reset()}
      />
    </form>
  );
}

function GridRow({
  row,
  label,
  idBase,
  error,
  pointer,
  onChange,
  onRemove,
}: {
  row: Row;
  label: string;
  idBase: string;
  error: unknown;
  /** Where the API's errors about this row point (/data/<n>), while the row is one of the writes. */
  pointer: string | undefined;
  onChange: (changes: Partial<Row>) => void;
  onRemove: () => void;
}) {
  const locked = row.variable?.attributes.sensitive === true;
  const at = (field: string) => `${pointer}/attributes/${field}`;
  const invalid = (field: string) =>
    pointer === undefined ? {} : describedBy(error, at(field), `${idBase}-${field}-error`);
  const message = (field: string) =>
    pointer === undefined ? null : <FieldError error={error} pointer={at(field)} id={`${idBase}-${field}-error`} />;
  const disabled = row.removed;
  return (
    <tr className={row.removed ? 'removed' : undefined} data-row={row.key}>
      <td>
        <input
          aria-label={`Key of ${label}`}
          value={row.key}
          onChange={(e) => onChange({ key: e.target.value })}
          disabled={locked || disabled}
          spellCheck={false}
          autoComplete="off"
          {...invalid('key')}
        />
        {message('key')}
        {pointer !== undefined && (
          <FieldError error={error} pointer={pointer} except={`${pointer}/attributes`} id={`${idBase}-error`} />
        )}
      </td>
      <td>
        <textarea
          aria-label={`Value of ${label}`}
          value={row.value}
          rows={1}
          spellCheck={false}
          onChange={(e) => onChange({ value: e.target.value })}
          disabled={disabled}
          placeholder={locked ? 'Sensitive: empty keeps it' : undefined}
          {...invalid('value')}
        />
        {message('value')}
      </td>
      <td>
        <select
          aria-label={`Category of ${label}`}
          value={row.category}
          onChange={(e) => onChange({ category: e.target.value as Category })}
          disabled={disabled}
          {...invalid('category')}
        >
          <option value="terraform">terraform</option>
          <option value="env">env</option>
        </select>
        {message('category')}
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={`HCL of ${label}`}
          checked={row.hcl}
          onChange={(e) => onChange({ hcl: e.target.checked })}
          disabled={locked || disabled}
          {...invalid('hcl')}
        />
        {message('hcl')}
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={`Sensitive of ${label}`}
          checked={row.sensitive}
          onChange={(e) => onChange({ sensitive: e.target.checked })}
          disabled={locked || disabled}
          {...invalid('sensitive')}
        />
        {message('sensitive')}
      </td>
      <td>
        <input
          aria-label={`Description of ${label}`}
          value={row.description}
          onChange={(e) => onChange({ description: e.target.value })}
          disabled={disabled}
          {...invalid('description')}
        />
        {message('description')}
      </td>
      <td>
        <button
          type="button"
          className="small"
          onClick={onRemove}
          aria-label={`${row.removed ? 'Keep' : 'Remove'} ${label}`}
        >
          {row.removed ? 'Keep' : 'Remove'}
        </button>
      </td>
    </tr>
  );
}

/** Pasted .env lines or HCL assignments, read into new rows; the lines not read are listed. */
function PasteBox({ onRows }: { onRows: (rows: PastedVariable[]) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [format, setFormat] = useState<PasteFormat>('env');
  const [problems, setProblems] = useState<PasteProblem[]>([]);
  const read = () => {
    const pasted = parsePasted(text, format);
    setProblems(pasted.problems);
    onRows(pasted.variables);
    if (pasted.problems.length === 0) setText('');
  };
  return (
    <fieldset className="paste">
      <legend>Paste variables</legend>
      <div className="field inline">
        <label>
          <input type="radio" name={`${id}-format`} checked={format === 'env'} onChange={() => setFormat('env')} /> .env
          lines (environment variables)
        </label>
        <label>
          <input type="radio" name={`${id}-format`} checked={format === 'hcl'} onChange={() => setFormat('hcl')} /> HCL
          assignments (Terraform variables)
        </label>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>Text to paste</label>
        <textarea
          id={`${id}-text`}
          rows={4}
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <button type="button" onClick={read} disabled={text.trim() === ''}>
        Add pasted rows
      </button>
      {problems.length > 0 && (
        <div role="alert" className="form-error">
          <p>
            {problems.length === 1 ? 'One line' : `${problems.length} lines`} could not be read (the rest were added):
          </p>
          <ul>
            {problems.map((p) => (
              <li key={p.line}>
                Line {p.line}: {p.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </fieldset>
  );
}
