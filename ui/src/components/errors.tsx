import { ApiError, type ErrorObject } from '../api/client';

/** The messages the API gave for the field at `pointer`, next to it (the input names this id in aria-describedby). */
export function FieldError({ error, pointer, id }: { error: unknown; pointer: string; id: string }) {
  const errors = error instanceof ApiError ? error.at(pointer) : [];
  if (!errors.length) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {errors.map((e) => e.detail ?? e.title).join(' ')}
    </p>
  );
}

/** Props that tie an input to its error message. */
export function describedBy(error: unknown, pointer: string, id: string) {
  const invalid = error instanceof ApiError && error.at(pointer).length > 0;
  return invalid ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
}

function describe(error: ErrorObject): string {
  return error.detail ?? error.title ?? 'the request failed';
}

/** Errors no field of the form names: a refused write (404), a conflict, a failure. */
export function FormError({ error, fields }: { error: unknown; fields: string[] }) {
  if (!error) return null;
  if (!(error instanceof ApiError)) return <p className="form-error" role="alert">The request failed: {String((error as Error).message ?? error)}</p>;
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
      {rest.map(describe).join(' ')}
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
