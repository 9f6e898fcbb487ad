import { useApi } from '../api/hooks';
import type { EffectiveValue, EffectiveVariable, Source } from '../api/types';
import { Listing } from './Listing';

/** Where a value comes from, in words: "set 'defaults', applied to project 'core'". */
export function describeSource(source: Source, projectName: string | undefined): string {
  if (source.type === 'workspace') return "the workspace's own variables";
  if (source.type === 'run') return "the run's own variables";
  const set = source.varset!;
  const where =
    set.scope === 'global' ? 'global' : set.scope === 'project' ? projectName ? `applied to project '${projectName}'` : "applied to the workspace's project" : 'applied to the workspace';
  const owner = set.owner === 'project' ? ', owned by the project' : '';
  return `set '${set.name}', ${where}${owner}${set.priority ? ', priority' : ''}`;
}

function shown(value: EffectiveValue): string {
  return value.sensitive ? '(sensitive)' : (value.value ?? '');
}

/** Each winning value of `path` (a workspace's or a run's effective variables), where it comes from and what it beat. */
export function EffectiveVariables({ path, projectName, title }: { path: string; projectName: string | undefined; title: string }) {
  const list = useApi<EffectiveVariable[]>(path);
  return (
    <section aria-labelledby="effective-title">
      <h2 id="effective-title">{title}</h2>
      <Listing list={list} what="effective variables" empty="No variables reach it.">
        {(items) => (
          <div className="table-wrap">
            <table className="effective">
              <caption className="visually-hidden">{title}: each variable's winning value and where it comes from</caption>
              <thead>
                <tr>
                  <th scope="col">Variable</th>
                  <th scope="col">Value</th>
                  <th scope="col">From</th>
                  <th scope="col">Overrides</th>
                </tr>
              </thead>
              <tbody>
                {items.map((variable) => {
                  const a = variable.attributes;
                  return (
                    <tr key={variable.id}>
                      <th scope="row">
                        <code>{a.key}</code> <span className="badge">{a.category}</span>
                      </th>
                      <td>
                        <code>{shown(a)}</code>
                      </td>
                      <td>{describeSource(a.source, projectName)}</td>
                      <td>
                        {a.overridden.length === 0 ? (
                          <span className="muted">nothing</span>
                        ) : (
                          <ul className="overridden">
                            {a.overridden.map((o, index) => (
                              <li key={index}>
                                overrides <code>{a.key}</code> from {describeSource(o.source, projectName)} (<code>{shown(o)}</code>)
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Listing>
    </section>
  );
}
