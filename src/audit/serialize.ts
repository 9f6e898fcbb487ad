import type { Static } from 'typebox';
import type { AuditEvent } from './model.js';
import type { AuditEventSchema, AuditTrailDocument } from './schemas.js';

export function serializeAuditEvent(event: AuditEvent): Static<typeof AuditEventSchema> {
  return {
    id: event.id,
    version: '0',
    type: 'Resource',
    timestamp: event.timestamp,
    auth: {
      accessor_id: event.auth.accessorId,
      description: event.auth.description,
      type: event.auth.type,
      impersonator_id: null,
      organization_id: event.organizationId,
    },
    request: { id: event.requestId },
    resource: {
      id: event.resource.id,
      type: event.resource.type,
      action: event.resource.action,
      meta: event.resource.meta,
    },
  };
}

/** A page of events with HCP Terraform's pagination (snake case, as the rest of the document). */
export function auditTrailDocument(
  events: AuditEvent[],
  total: number,
  page: { number: number; size: number },
): Static<typeof AuditTrailDocument> {
  const totalPages = Math.max(1, Math.ceil(total / page.size));
  return {
    data: events.map(serializeAuditEvent),
    pagination: {
      current_page: page.number,
      prev_page: page.number > 1 ? Math.min(page.number - 1, totalPages) : null,
      next_page: page.number < totalPages ? page.number + 1 : null,
      total_pages: totalPages,
      total_count: total,
    },
  };
}
