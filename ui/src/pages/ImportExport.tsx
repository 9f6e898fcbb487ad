import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { useCanRestoreDeletedSets } from '../api/hooks';
import { readExport, runImport, type ExportDocuments, type ImportAttributes, type ImportReport } from '../api/imports';
import { ImportReportView } from '../components/ImportReportView';

/** Saves `text` as a file the browser downloads. */
function save(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

const fileName = (org: string, extension: string) => `${org.replace(/[^A-Za-z0-9._-]/g, '_')}-varsets.${extension}`;

/** What the import form holds: an uploaded export, or a source the server reads. */
type Input =
  | { kind: 'file'; documents: ExportDocuments; fileName: string }
  | { kind: 'source'; url: string; token: string; organization: string };

function attributesOf(input: Input, dryRun: boolean): NonNullable<ImportAttributes> {
  return input.kind === 'file'
    ? { 'dry-run': dryRun, documents: input.documents, 'file-name': input.fileName }
    : { 'dry-run': dryRun, source: { url: input.url, token: input.token, organization: input.organization } };
}

/**
 * An organization's export as downloads (JSON documents, Terraform), and for its owners the
 * import: an uploaded export or a named source, a dry run whose report is shown, then the
 * import itself with the same input.
 */
export function ImportExport() {
  const org = useParams().org!;
  const owner = useCanRestoreDeletedSets(org);
  const client = useQueryClient();
  const [downloadError, setDownloadError] = useState<string>();
  const [kind, setKind] = useState<'file' | 'source'>('file');
  const [file, setFile] = useState<{ documents: ExportDocuments; fileName: string }>();
  const [fileError, setFileError] = useState<string>();
  const [url, setUrl] = useState('https://app.terraform.io');
  const [token, setToken] = useState('');
  const [sourceOrg, setSourceOrg] = useState('');
  const [report, setReport] = useState<ImportReport>();
  const [failed, setFailed] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [dryRan, setDryRan] = useState(false);
  const reportHeading = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  // A new report, or a refusal, takes the focus: its heading is where a screen reader goes on.
  useEffect(() => {
    if (report) reportHeading.current?.focus();
  }, [report]);
  useEffect(() => {
    if (failed) errorRef.current?.focus();
  }, [failed]);

  const download = (format: 'json' | 'tf') => {
    setDownloadError(undefined);
    readExport(org, format).then(
      (text) => save(text, fileName(org, format), format === 'json' ? 'application/json' : 'text/plain'),
      (error: unknown) => setDownloadError(error instanceof Error ? error.message : String(error)),
    );
  };

  const input: Input | undefined =
    kind === 'file'
      ? file && { kind: 'file', ...file }
      : url && token && sourceOrg
        ? { kind: 'source', url, token, organization: sourceOrg }
        : undefined;
  const changed = () => {
    setDryRan(false);
    setReport(undefined);
    setFailed(undefined);
  };

  const readFile = async (chosen: File | undefined) => {
    changed();
    setFile(undefined);
    setFileError(undefined);
    if (!chosen) return;
    try {
      const parsed: unknown = JSON.parse(await chosen.text());
      if (!Array.isArray(parsed)) throw new Error('it is not a list of set documents');
      setFile({ documents: parsed as ExportDocuments, fileName: chosen.name });
    } catch (error) {
      setFileError(`${chosen.name} is not an export of varsetd (${error instanceof Error ? error.message : ''})`);
    }
  };

  const run = (dryRun: boolean) => {
    if (!input) return;
    setBusy(true);
    setFailed(undefined);
    runImport(org, attributesOf(input, dryRun))
      .then(
        (answered) => {
          setReport(answered);
          setDryRan(dryRun);
          if (!dryRun) void client.invalidateQueries();
        },
        (error: unknown) => {
          setReport(undefined);
          setFailed(
            error instanceof ApiError && error.status === 403
              ? `Only the organization's owners may import into it. ${error.message}`
              : error instanceof Error
                ? error.message
                : String(error),
          );
        },
      )
      .finally(() => setBusy(false));
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    run(true);
  };

  return (
    <>
      <h1 tabIndex={-1}>Import and export for {org}</h1>
      <section aria-labelledby="export-heading">
        <h2 id="export-heading">Export</h2>
        <p className="muted">
          Every set of the organization, with its variables and assignments. No sensitive value is exported, only that a
          variable is sensitive.
        </p>
        <div className="actions">
          <button type="button" onClick={() => download('json')}>
            Download export (JSON)
          </button>
          <button type="button" onClick={() => download('tf')}>
            Download export (Terraform)
          </button>
        </div>
        {downloadError && (
          <p className="form-error" role="alert">
            {downloadError}
          </p>
        )}
      </section>
      <section aria-labelledby="import-heading">
        <h2 id="import-heading">Import</h2>
        {!owner && <p className="notice">Only the organization's owners may import into it.</p>}
        <form onSubmit={submit} noValidate>
          <fieldset>
            <legend>Import from</legend>
            <label>
              <input
                type="radio"
                name="import-kind"
                checked={kind === 'file'}
                onChange={() => {
                  setKind('file');
                  changed();
                }}
              />{' '}
              an export file (JSON)
            </label>
            <label>
              <input
                type="radio"
                name="import-kind"
                checked={kind === 'source'}
                onChange={() => {
                  setKind('source');
                  changed();
                }}
              />{' '}
              a server (HCP Terraform, Terraform Enterprise, another varsetd)
            </label>
          </fieldset>
          {kind === 'file' ? (
            <p>
              <label htmlFor="import-file">Export file</label>
              <input
                id="import-file"
                type="file"
                accept=".json,application/json"
                aria-describedby={fileError ? 'import-file-error' : undefined}
                onChange={(event) => void readFile(event.target.files?.[0])}
              />
              {fileError && (
                <span id="import-file-error" className="form-error" role="alert">
                  {fileError}
                </span>
              )}
            </p>
          ) : (
            <>
              <p>
                <label htmlFor="import-url">Server address</label>
                <input
                  id="import-url"
                  type="url"
                  value={url}
                  onChange={(event) => {
                    setUrl(event.target.value);
                    changed();
                  }}
                />
              </p>
              <p>
                <label htmlFor="import-organization">Organization there</label>
                <input
                  id="import-organization"
                  value={sourceOrg}
                  onChange={(event) => {
                    setSourceOrg(event.target.value);
                    changed();
                  }}
                />
              </p>
              <p>
                <label htmlFor="import-token">Token there</label>
                <input
                  id="import-token"
                  type="password"
                  autoComplete="off"
                  aria-describedby="import-token-help"
                  value={token}
                  onChange={(event) => {
                    setToken(event.target.value);
                    changed();
                  }}
                />
                <span id="import-token-help" className="muted">
                  Used for this import's reads only, never kept.
                </span>
              </p>
            </>
          )}
          <div className="actions">
            <button type="submit" disabled={!input || busy}>
              Dry run
            </button>
            <button type="button" disabled={!input || busy || !dryRan} onClick={() => run(false)}>
              Import
            </button>
          </div>
          {busy && <p aria-live="polite">Working…</p>}
          {failed && (
            <p className="form-error" role="alert" tabIndex={-1} ref={errorRef}>
              {failed}
            </p>
          )}
        </form>
        {report && <ImportReportView report={report} headingRef={reportHeading} />}
      </section>
    </>
  );
}
