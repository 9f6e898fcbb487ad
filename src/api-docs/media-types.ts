import { API_PREFIX, MEDIA_TYPE } from '../jsonapi/document.js';

/**
 * The media types of the OpenAPI document's bodies. @fastify/swagger names every body
 * `application/json`; the API reads and answers JSON:API (`application/vnd.api+json`), but for
 * the audit trail's answer, plain JSON in HCP Terraform's shape, and an export's download
 * (their errors are JSON:API).
 */
const PLAIN_JSON_ANSWERS = new Set([
  `${API_PREFIX}/organization/audit-trail`,
  `${API_PREFIX}/organizations/{organization}/varset-export`,
]);

type Content = Record<string, unknown>;
interface Operation {
  requestBody?: { content?: Content };
  responses?: Record<string, { content?: Content }>;
}

function asJsonApi(content: Content | undefined): void {
  if (content?.['application/json'] === undefined) return;
  content[MEDIA_TYPE] = content['application/json'];
  delete content['application/json'];
}

/** Gives the document's bodies under /api/v2 the media type they are sent and read in. */
export function withJsonApiMediaTypes<T extends { paths?: unknown }>(document: T): T {
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    if (!path.startsWith(`${API_PREFIX}/`)) continue;
    for (const operation of Object.values(item)) {
      asJsonApi(operation.requestBody?.content);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!(PLAIN_JSON_ANSWERS.has(path) && status.startsWith('2'))) asJsonApi(response.content);
      }
    }
  }
  return document;
}
