import type { RefObject } from 'react';
import type { ImportReport } from '../api/imports';

interface Row {
  what: string;
  name: string;
  result: string;
  why?: string | undefined;
  valueNeeded?: boolean;
}

/** Every item of a report as a row: projects, workspaces, each set with its variables and assignments, tags, workspace variables, what the source could not give. */
function rowsOf(report: ImportReport): Row[] {
  const rows: Row[] = [];
  for (const p of report.projects) rows.push({ what: 'Project', name: p.name, result: p.result, why: p.why });
  for (const w of report.workspaces) rows.push({ what: 'Workspace', name: w.name, result: w.result, why: w.why });
  for (const set of report.sets) {
    rows.push({ what: 'Set', name: set.name, result: set.result, why: set.why });
    for (const v of set.variables)
      rows.push({
        what: `Variable of ${set.name}`,
        name: `${v.key} (${v.category})`,
        result: v.result,
        why: v.why,
        valueNeeded: v['value-needed'] === true,
      });
    for (const a of set.assignments)
      rows.push({ what: `Assignment of ${set.name}`, name: `${a.kind} ${a.name}`, result: a.result, why: a.why });
  }
  for (const t of report['workspace-tags'])
    rows.push({ what: `Tag of workspace ${t.workspace}`, name: t.tag, result: t.result, why: t.why });
  for (const v of report['workspace-variables'])
    rows.push({
      what: `Variable of workspace ${v.workspace}`,
      name: `${v.key} (${v.category})`,
      result: v.result,
      why: v.why,
      valueNeeded: v['value-needed'] === true,
    });
  for (const s of report.skipped) rows.push({ what: 'Not imported', name: s.what, result: 'skipped', why: s.why });
  return rows;
}

const RESULTS = ['created', 'updated', 'unchanged', 'skipped', 'removed'] as const;

/** An import's report: counts by result, then every item with its result and why. */
export function ImportReportView({
  report,
  headingRef,
}: {
  report: ImportReport;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const rows = rowsOf(report);
  const count = (result: string) => rows.filter((row) => row.result === result).length;
  return (
    <section aria-labelledby="import-report-heading">
      <h3 id="import-report-heading" tabIndex={-1} ref={headingRef}>
        {report['dry-run'] ? 'Dry run report: nothing was written' : 'Import report'}
      </h3>
      <p>
        From {report.source} into {report.organization}:{' '}
        {RESULTS.map((result) => `${count(result)} ${result}`).join(', ')}.
      </p>
      <div className="table-wrap">
        <table aria-label={report['dry-run'] ? 'What the import would do' : 'What the import did'}>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">Name</th>
              <th scope="col">Result</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                <td>{row.what}</td>
                <td>{row.name}</td>
                <td>{row.result}</td>
                <td>
                  {row.why ?? ''}
                  {row.valueNeeded ? `${row.why ? '; ' : ''}needs a value` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
