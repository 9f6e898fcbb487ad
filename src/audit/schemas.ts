import Type from 'typebox';
import { Nullable } from '../jsonapi/schemas.js';

/** The audit trail as HCP Terraform answers it: plain JSON, not JSON:API, field names in snake case. */

const Meta = Nullable(
  Type.Record(Type.String(), Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()])), {
    description: 'small facts about the resource (a name, a key, a category), never a value or a secret',
  }),
);

export const AuditEventSchema = Type.Object({
  id: Type.String({ format: 'uuid', description: "the event's id" }),
  version: Type.Literal('0', { description: "the version of the event's shape" }),
  type: Type.Literal('Resource'),
  timestamp: Type.String({ description: 'when the write committed, UTC ISO 8601 with milliseconds' }),
  auth: Type.Object({
    accessor_id: Type.String({
      description: 'the id of the token that wrote; for CommandLine, the operating-system user who ran the command',
    }),
    description: Type.String({ description: 'who the token stands for, e.g. team owners (token "CI")' }),
    type: Type.Union([Type.Literal('Client'), Type.Literal('CommandLine')], {
      description:
        "Client: the caller's own credentials; CommandLine: varsetd's command line working on the store directly, with no token",
    }),
    impersonator_id: Type.Null(),
    organization_id: Type.String(),
  }),
  request: Type.Object({ id: Nullable(Type.String({ description: "the request's id, its X-Request-Id header" })) }),
  resource: Type.Object({
    id: Type.String(),
    type: Type.String({ description: 'e.g. workspace, varset, var, run, authentication_token' }),
    action: Type.String({ description: 'e.g. create, update, destroy, lock, apply' }),
    meta: Meta,
  }),
});

export const AuditTrailDocument = Type.Object({
  data: Type.Array(AuditEventSchema),
  pagination: Type.Object({
    current_page: Type.Integer(),
    prev_page: Nullable(Type.Integer()),
    next_page: Nullable(Type.Integer()),
    total_pages: Type.Integer(),
    total_count: Type.Integer(),
  }),
});

export const AuditTrailQuery = {
  since: Type.Optional(
    Type.String({ description: 'only events at or after this time: ISO 8601, e.g. 2026-05-30T17:52:46.000Z' }),
  ),
  'page[number]': Type.Optional(Type.String({ description: 'page to answer, from 1' })),
  'page[size]': Type.Optional(Type.String({ description: 'events per page, 1 to 1000 (default 1000)' })),
  'filter[resource][type]': Type.Optional(
    Type.String({ description: 'varsetd: only events of this resource type, e.g. varset' }),
  ),
  'filter[resource][action]': Type.Optional(
    Type.String({ description: 'varsetd: only events of this action, e.g. update' }),
  ),
  'filter[auth][description]': Type.Optional(
    Type.String({ description: "varsetd: only events whose token's description contains this, ignoring case" }),
  ),
  'filter[organization][name]': Type.Optional(
    Type.String({
      description:
        "the organization whose trail to read: required with the site administrator's token; an organization token may name only its own",
    }),
  ),
};
