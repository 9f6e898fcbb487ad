import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { contextOf } from '../http/context.js';
import { ErrorDocument, Query, Responses } from '../jsonapi/schemas.js';
import { tagged } from '../jsonapi/tags.js';
import { ExportDocumentsSchema, ImportBody, ImportReportResource, IMPORT_REPORT_TYPE } from '../imports/schemas.js';
import { exportOrganization, importIntoOrganization, type ImportRequest } from '../imports/service.js';
import { Invalid } from '../common/errors.js';

const OrganizationParams = Type.Object({ organization: Type.String() });

/** The file name of a download: the organization's name with what a header cannot hold replaced. */
const fileName = (organization: string, extension: string) =>
  `${organization.replace(/[^A-Za-z0-9._-]/g, '_')}-varsets.${extension}`;

/**
 * varsetd's own: an organization's sets as a download (the documents of `varsetd export`, or its
 * Terraform configuration), and an import into an organization, dry run or not, for its owners.
 */
export const importRoutes: FastifyPluginAsyncTypebox<{ allowedSources: readonly string[] }> = async (
  api,
  { allowedSources },
) => {
  api.addHook('onRoute', tagged('imports'));

  api.get(
    '/organizations/:organization/varset-export',
    {
      schema: {
        description:
          "Every set of the organization, as an attachment: `format=json` (the default) the documents of `varsetd export` in one file, which the import reads back; `format=tf` the Terraform configuration for the tfe provider. No sensitive value, only that a variable is sensitive. For a token that may read all of the organization's sets.",
        params: OrganizationParams,
        querystring: Query({ format: Type.Optional(Type.Enum(['json', 'tf'])) }),
        response: {
          200: {
            description: 'the export, as an attachment',
            content: {
              'application/json': { schema: ExportDocumentsSchema },
              'text/plain': { schema: Type.String({ description: 'Terraform configuration (format=tf)' }) },
            },
          },
          '4xx': ErrorDocument,
        },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'json';
      const exported = await exportOrganization(contextOf(request), request.params.organization);
      const text = format === 'tf' ? exported.terraform() : `${JSON.stringify(exported.documents, null, 2)}\n`;
      // A Buffer is sent as is, past the response schema (which documents it).
      return reply
        .header('content-type', format === 'tf' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${fileName(request.params.organization, format === 'tf' ? 'tf' : 'json')}"`,
        )
        .header('cache-control', 'no-store')
        .send(Buffer.from(text, 'utf8') as unknown as string);
    },
  );

  api.post(
    '/organizations/:organization/varset-imports',
    {
      schema: {
        description:
          "Imports sets into the organization, from an uploaded export (`documents`) or from a source the server reads (`source`: an API's URL, a token and the organization there), as `varsetd import` does. With `dry-run: true`, writes nothing and answers the report of what it would do; without, imports and answers what was done. For the organization's owners.",
        params: OrganizationParams,
        body: ImportBody,
        response: Responses({ 200: Type.Object({ data: ImportReportResource }) }),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const a = request.body.data.attributes ?? {};
      const documents = a.documents ?? undefined;
      const source = a.source ?? undefined;
      if ((documents === undefined) === (source === undefined))
        throw new Invalid('', 'give either documents (an uploaded export) or source (a server to read), not both');
      const what: ImportRequest =
        documents !== undefined
          ? { kind: 'documents', documents, fileName: a['file-name'] ?? undefined }
          : { kind: 'source', url: source!.url, token: source!.token, organization: source!.organization };
      const report = await importIntoOrganization(ctx, request.params.organization, what, {
        dryRun: a['dry-run'] ?? false,
        allowedSources,
      });
      return { data: { id: ctx.requestId, type: IMPORT_REPORT_TYPE, attributes: report } };
    },
  );
};
