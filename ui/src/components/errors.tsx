import { useEffect, type RefObject } from 'react';
import { Link, useMatch } from 'react-router';
import { ApiError, type ErrorObject } from '../api/client';
import { useVarsetList } from '../api/hooks';
import { useOrganizationOfPage } from './frame';

/** After a refusal, focus goes to the first field it marked invalid (the first control of a marked group), not the submit button. */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, error: unknown): void {
  useEffect(() => {
    if (!(error instanceof ApiError)) return;
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target =
      invalid instanceof HTMLFieldSetElement
        ? invalid.querySelector<HTMLElement>('input, select, textarea, button')
        : invalid;
    target?.focus();
  }, [form, error]);
}

/** The global rule's 422 names the set already holding the key: `… the global variable set "name": …`. */
const CONFLICTING_SET = /^(.*global variable set ")(.+)(": global variable sets .*)$/s;

/** The set a conflict names, linked to its page once the organization's list finds it by that exact name. */
function ConflictingSet({ name }: { name: string }) {
  const inOrganization = useMatch('/organizations/:org/*');
  const ofPage = useOrganizationOfPage();
  const org = inOrganization?.params.org ?? ofPage;
  const found = useVarsetList('organizations', org ?? null, { q: name, size: 100 });
  const set = found.data?.data.find((s) => s.attributes.name === name);
  return set ? <Link to={`/varsets/${set.id}`}>{name}</Link> : <>{name}</>;
}

/** An error's message; the set a global-rule conflict names is a link. */
function ErrorText({ error }: { error: ErrorObject }) {
  const text = describe(error);
  const conflict = CONFLICTING_SET.exec(text);
  if (!conflict) return <>{text}</>;
  return (
    <>
      {conflict[1]}
      <ConflictingSet name={conflict[2]!} />
      {conflict[3]}
    </>
  );
}

/** Messages one after another, separated by a space. */
function ErrorTexts({ errors }: { errors: ErrorObject[] }) {
  return (
    <>
      {errors.map((e, i) => (
        <span key={i}>
          {i > 0 && ' '}
          <ErrorText error={e} />
        </span>
      ))}
    </>
  );
}

/**
 * The messages the API gave for the field at `pointer`, next to it (the input names this id in
 * aria-describedby); with `except`, not those pointing into it (a row's fields, shown at each field).
 */
export function FieldError({
  error,
  pointer,
  id,
  except,
}: {
  error: unknown;
  pointer: string;
  id: string;
  except?: string;
}) {
  if (!(error instanceof ApiError)) return null;
  const inside = new Set(except === undefined ? [] : error.at(except));
  const errors = error.at(pointer).filter((e) => !inside.has(e));
  if (!errors.length) return null;
  return (
    <p className="field-error" id={id} role="alert">
      <ErrorTexts errors={errors} />
    </p>
  );
}

/** Props that tie an input to its error message. */
export function describedBy(error: unknown, pointer: string, id: string) {
  const invalid = error instanceof ApiError && error.at(pointer).length > 0;
  return invalid ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
}

function describe(error: ErrorObject): string {
  return error.detail ?? error.title;
}

/** Errors no field of the form names: a refused write (404), a conflict, a failure. */
export function FormError({ error, fields }: { error: unknown; fields: string[] }) {
  if (!error) return null;
  if (!(error instanceof ApiError))
    return (
      <p className="form-error" role="alert">
        The request failed: {String((error as { message?: string }).message ?? error)}
      </p>
    );
  if (error.status === 404) {
    return (
      <p className="form-error" role="alert">
        The server answered “not found”: this token may not make this change, or what it changes no longer exists.
      </p>
    );
  }
  const rest = error.elsewhere(fields);
  if (!rest.length) return null;
  return (
    <p className="form-error" role="alert">
      <ErrorTexts errors={rest} />
    </p>
  );
}

/** What a failed read shows in place of its content. */
export function LoadError({ error, what }: { error: unknown; what: string }) {
  if (error instanceof ApiError && error.status === 404) {
    return <p className="notice">No {what} here, or this token may not see it.</p>;
  }
  return (
    <p className="form-error" role="alert">
      Could not load the {what}: {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
