import { answer, api, plainApi } from './client';
import type { paths } from './schema';

type ImportPath = paths['/api/v2/organizations/{organization}/varset-imports']['post'];
/** The attributes of an import's request: an uploaded export's documents, or a source the server reads. */
export type ImportAttributes = NonNullable<
  ImportPath['requestBody']
>['content']['application/vnd.api+json']['data']['attributes'];
/** What an import did, or would do in a dry run: the report `varsetd import --json` prints. */
export type ImportReport = ImportPath['responses'][200]['content']['application/vnd.api+json']['data']['attributes'];
/** The documents of an export: what the JSON download holds and the import reads back. */
export type ExportDocuments = NonNullable<NonNullable<ImportAttributes>['documents']>;

/** The organization's export, as the text of its download (`json`: the documents; `tf`: Terraform configuration). */
export async function readExport(org: string, format: 'json' | 'tf'): Promise<string> {
  return answer(
    plainApi.GET('/api/v2/organizations/{organization}/varset-export', {
      params: { path: { organization: org }, query: { format } },
      parseAs: 'text',
    }),
  );
}

/** Runs an import into `org` (a dry run when `attributes['dry-run']`), answering its report. */
export async function runImport(org: string, attributes: NonNullable<ImportAttributes>): Promise<ImportReport> {
  const document = await answer(
    api.POST('/api/v2/organizations/{organization}/varset-imports', {
      params: { path: { organization: org } },
      body: { data: { type: 'varset-imports', attributes } },
    }),
  );
  return document.data.attributes;
}
