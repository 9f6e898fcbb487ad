import type { Category } from '../api/types';
import { describedBy, FieldError } from './errors';

/** A variable typed into the form that creates a set, sent in its `vars` relationship. */
export interface NewVariable {
  key: string;
  value: string;
  category: Category;
  hcl: boolean;
  sensitive: boolean;
}

export const emptyVariable = (): NewVariable => ({
  key: '',
  value: '',
  category: 'terraform',
  hcl: false,
  sensitive: false,
});

export const VARS_POINTER = '/data/relationships/vars';

/** The variables a new set starts with: a group each, any error the API gives for one under its key. */
export function NewVariables({
  variables,
  onChange,
  error,
}: {
  variables: NewVariable[];
  onChange: (variables: NewVariable[]) => void;
  error: unknown;
}) {
  const update = (index: number, changes: Partial<NewVariable>) =>
    onChange(variables.map((v, i) => (i === index ? { ...v, ...changes } : v)));
  return (
    <fieldset className="field new-variables">
      <legend>Variables</legend>
      {variables.length === 0 && <p className="muted">None yet: add them here, or on the set's page once it exists.</p>}
      {variables.map((variable, index) => {
        const pointer = `${VARS_POINTER}/data/${index}`;
        const errorId = `new-variable-${index}-error`;
        const id = (name: string) => `new-variable-${index}-${name}`;
        return (
          <fieldset key={index} className="new-variable">
            <legend>Variable {index + 1}</legend>
            <div className="field">
              <label htmlFor={id('key')}>Key</label>
              <input
                id={id('key')}
                value={variable.key}
                onChange={(e) => update(index, { key: e.target.value })}
                autoComplete="off"
                spellCheck={false}
                {...describedBy(error, pointer, errorId)}
              />
              <FieldError error={error} pointer={pointer} id={errorId} />
            </div>
            <div className="field">
              <label htmlFor={id('value')}>Value</label>
              <textarea
                id={id('value')}
                rows={1}
                value={variable.value}
                onChange={(e) => update(index, { value: e.target.value })}
                spellCheck={false}
              />
            </div>
            <div className="field inline">
              <label>
                <input
                  type="checkbox"
                  checked={variable.category === 'env'}
                  onChange={(e) => update(index, { category: e.target.checked ? 'env' : 'terraform' })}
                />{' '}
                Environment variable (otherwise Terraform)
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={variable.hcl}
                  onChange={(e) => update(index, { hcl: e.target.checked })}
                />{' '}
                HCL
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={variable.sensitive}
                  onChange={(e) => update(index, { sensitive: e.target.checked })}
                />{' '}
                Sensitive (write-only)
              </label>
            </div>
            <button
              type="button"
              className="small danger"
              onClick={() => onChange(variables.filter((_, i) => i !== index))}
            >
              Remove variable {index + 1}
            </button>
          </fieldset>
        );
      })}
      <button type="button" className="small" onClick={() => onChange([...variables, emptyVariable()])}>
        Add a variable to the set
      </button>
    </fieldset>
  );
}
