import type { Context } from '../auth/context.js';
import { recordAuditEvent } from '../audit/service.js';
import { ensure } from '../auth/decisions.js';
import { getOrganization } from '../organizations/service.js';
import { transaction } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Invalid, Unprocessable, blank } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { isLocalName, isPrivateAddress, literalAddress } from './addresses.js';
import {
  MAX_CONFIGURATIONS,
  MAX_NAME_LENGTH,
  MAX_TOKEN_LENGTH,
  MAX_URL_LENGTH,
  TRIGGERS,
  type DeliveryResponse,
  type DestinationType,
  type NotificationConfiguration,
  type Trigger,
} from './model.js';
import { verificationBody } from './payload.js';
import { DEFAULT_TIMEOUT_MS, send } from './send.js';
import {
  countConfigurations,
  deleteConfiguration,
  dropQueuedDeliveries,
  findConfiguration,
  findResponses,
  insertConfiguration,
  insertResponse,
  organizationExists,
  pageOfConfigurations,
  updateConfiguration,
} from './store.js';

/**
 * An organization's notification configurations for variable-set changes: managed by its
 * owners, its organization token and the site administrator (`varset-notifications:manage`);
 * for anyone else, the 404 of a missing one.
 */

/** Where notifications may go: VARSETD_NOTIFICATIONS_ALLOW_PRIVATE, and how long a verification may take. */
export interface DestinationPolicy {
  allowPrivateAddresses: boolean;
  timeoutMs?: number;
}

/** A configuration as responses show it: with the newest responses its deliveries got. */
export interface ShownConfiguration {
  configuration: NotificationConfiguration;
  responses: DeliveryResponse[];
}

/** What a create or update request gives; undefined leaves an attribute as it is (or its default). */
export interface ConfigurationCommand {
  name?: string | undefined;
  destinationType?: DestinationType | undefined;
  url?: string | undefined;
  /** An empty string removes the token. */
  token?: string | undefined;
  enabled?: boolean | undefined;
  triggers?: string[] | undefined;
}

function ensureManaging(ctx: Context, organizationId: string): void {
  ensure(ctx.subject, 'varset-notifications:manage', { organizationId });
}

async function managedConfiguration(ctx: Context, id: string): Promise<NotificationConfiguration> {
  const configuration = await findConfiguration(ctx.store.db, id);
  if (!configuration) throw new NotFound();
  ensureManaging(ctx, configuration.organizationId);
  return configuration;
}

async function shown(ctx: Context, configuration: NotificationConfiguration): Promise<ShownConfiguration> {
  return { configuration, responses: (await findResponses(ctx.store.db, [configuration.id])).get(configuration.id)! };
}

export async function listConfigurations(
  ctx: Context,
  organizationName: string,
  page: Page,
): Promise<{ rows: ShownConfiguration[]; total: number }> {
  const organization = await getOrganization(ctx, organizationName, 'varset-notifications:manage');
  const { rows, total } = await pageOfConfigurations(ctx.store.db, organization.id, page);
  const responses = await findResponses(
    ctx.store.db,
    rows.map((row) => row.id),
  );
  return { rows: rows.map((configuration) => ({ configuration, responses: responses.get(configuration.id)! })), total };
}

export async function showConfiguration(ctx: Context, id: string): Promise<ShownConfiguration> {
  return shown(ctx, await managedConfiguration(ctx, id));
}

export async function createConfiguration(
  ctx: Context,
  organizationName: string,
  command: ConfigurationCommand,
  policy: DestinationPolicy,
): Promise<ShownConfiguration> {
  const organization = await getOrganization(ctx, organizationName, 'varset-notifications:manage');
  const organizationId = organization.id;
  if (command.name === undefined) throw blank('name');
  if (command.destinationType === undefined) throw blank('destination-type');
  if (command.url === undefined) throw blank('url');
  const time = now();
  const configuration = checked(
    {
      id: newId('nc'),
      organizationId,
      organizationName: organization.name,
      name: '',
      destinationType: command.destinationType,
      url: '',
      sealedToken: null,
      enabled: false,
      triggers: [],
      createdAt: time,
      updatedAt: time,
    },
    command,
    ctx,
    policy,
  );
  await transaction(ctx.store, async (trx) => {
    if (!(await organizationExists(trx, organizationId))) throw new NotFound();
    if ((await countConfigurations(trx, organizationId)) >= MAX_CONFIGURATIONS) {
      throw new Unprocessable(`an organization has at most ${MAX_CONFIGURATIONS} notification configurations`);
    }
    await insertConfiguration(trx, configuration);
    recordAuditEvent(trx, ctx, {
      organizationId,
      type: 'notification_configuration',
      id: configuration.id,
      action: 'create',
      meta: { name: configuration.name },
    });
  });
  return { configuration, responses: [] };
}

export async function updateConfigurationOf(
  ctx: Context,
  id: string,
  command: ConfigurationCommand,
  policy: DestinationPolicy,
): Promise<ShownConfiguration> {
  const updated = await transaction(ctx.store, async (trx) => {
    const current = await findConfiguration(trx, id);
    if (!current) throw new NotFound();
    ensureManaging(ctx, current.organizationId);
    const next = checked({ ...current, updatedAt: now() }, command, ctx, policy);
    await updateConfiguration(trx, next);
    // A disabled configuration gets nothing, not even what was waiting for it.
    if (current.enabled && !next.enabled) await dropQueuedDeliveries(trx, id);
    recordAuditEvent(trx, ctx, {
      organizationId: next.organizationId,
      type: 'notification_configuration',
      id,
      action: 'update',
      meta: { name: next.name, enabled: next.enabled },
    });
    return next;
  });
  return shown(ctx, updated);
}

export async function deleteConfigurationOf(ctx: Context, id: string): Promise<void> {
  await transaction(ctx.store, async (trx) => {
    const current = await findConfiguration(trx, id);
    if (!current) throw new NotFound();
    ensureManaging(ctx, current.organizationId);
    await deleteConfiguration(trx, id);
    recordAuditEvent(trx, ctx, {
      organizationId: current.organizationId,
      type: 'notification_configuration',
      id,
      action: 'destroy',
      meta: { name: current.name },
    });
  });
}

/** Sends a verification to the configuration's URL, records the response and answers the configuration with it. */
export async function verifyConfiguration(
  ctx: Context,
  id: string,
  policy: DestinationPolicy,
): Promise<ShownConfiguration> {
  const configuration = await managedConfiguration(ctx, id);
  const sentAt = now();
  const token = openedToken(ctx, configuration);
  const sent =
    token === undefined
      ? {
          response: {
            url: configuration.url,
            code: null,
            body: '',
            headers: {},
            error: 'the token cannot be opened with this encryption key',
            successful: false,
            sentAt,
          },
        }
      : await send(configuration.url, verificationBody(configuration, configuration.organizationName, sentAt), token, {
          timeoutMs: policy.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          allowPrivateAddresses: policy.allowPrivateAddresses,
        });
  await transaction(ctx.store, async (trx) => {
    // Deleted meanwhile: nothing to record the response with.
    if (!(await findConfiguration(trx, id))) throw new NotFound();
    await insertResponse(trx, id, { ...sent.response, varsetId: null, versionNumber: null, attempt: null });
    recordAuditEvent(trx, ctx, {
      organizationId: configuration.organizationId,
      type: 'notification_configuration',
      id,
      action: 'verify',
      meta: { name: configuration.name, successful: sent.response.successful },
    });
  });
  return shown(ctx, configuration);
}

/** The token that signs what goes to the configuration (null: nothing is signed); undefined when it cannot be opened. */
function openedToken(ctx: Context, configuration: NotificationConfiguration): string | null | undefined {
  if (configuration.destinationType !== 'generic' || configuration.sealedToken === null) return null;
  try {
    return ctx.sealer.open(configuration.sealedToken);
  } catch {
    return undefined;
  }
}

/** The configuration with the command applied, once every attribute is checked; a 422 at the first that is wrong. */
function checked(
  base: NotificationConfiguration,
  command: ConfigurationCommand,
  ctx: Context,
  policy: DestinationPolicy,
): NotificationConfiguration {
  const next = { ...base };
  if (command.name !== undefined) {
    const name = command.name.trim();
    if (!name) throw blank('name');
    if (name.length > MAX_NAME_LENGTH)
      throw new Invalid('name', `name is too long (at most ${MAX_NAME_LENGTH} characters)`);
    next.name = name;
  }
  if (command.destinationType !== undefined) next.destinationType = command.destinationType;
  if (command.url !== undefined) next.url = checkedUrl(command.url, policy);
  if (command.token !== undefined) {
    if (command.token.length > MAX_TOKEN_LENGTH)
      throw new Invalid('token', `token is too long (at most ${MAX_TOKEN_LENGTH} characters)`);
    next.sealedToken = command.token === '' ? null : ctx.sealer.seal(command.token);
  }
  if (command.enabled !== undefined) next.enabled = command.enabled;
  if (command.triggers !== undefined) next.triggers = checkedTriggers(command.triggers);
  return next;
}

function checkedUrl(text: string, policy: DestinationPolicy): string {
  const field = 'url';
  if (text.length > MAX_URL_LENGTH) throw new Invalid(field, `url is too long (at most ${MAX_URL_LENGTH} characters)`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Invalid(field, 'url must be an absolute http or https URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw new Invalid(field, 'url must be an absolute http or https URL');
  if (!policy.allowPrivateAddresses) {
    const literal = literalAddress(url.hostname);
    if (isLocalName(url.hostname) || (literal !== undefined && isPrivateAddress(literal))) {
      throw new Invalid(
        field,
        'url must not be a private, loopback or link-local address (VARSETD_NOTIFICATIONS_ALLOW_PRIVATE allows them)',
      );
    }
  }
  return text;
}

function checkedTriggers(triggers: string[]): Trigger[] {
  triggers.forEach((trigger, index) => {
    if (!(TRIGGERS as readonly string[]).includes(trigger)) {
      throw new Invalid(
        `triggers[${index}]`,
        `${JSON.stringify(trigger)} is not a trigger; triggers are ${TRIGGERS.join(', ')}`,
      );
    }
  });
  return TRIGGERS.filter((trigger) => triggers.includes(trigger));
}
