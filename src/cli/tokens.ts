import type { Context } from '../auth/context.js';
import { listOrganizationTeams } from '../teams/service.js';
import { TokenBody } from '../tokens/schemas.js';
import {
  createDescribedTeamToken,
  createOrganizationToken,
  createSiteAdminToken,
  createTeamToken,
  listAllTokens,
  revokeTokenById,
  type TokenOptions,
} from '../tokens/service.js';
import { finish, onStore, orNotFound, readArgs, table, UsageError } from './store-command.js';
import { checkBody } from './schema-check.js';
import { row, storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd tokens create (--organization ORG | --team ORG/TEAM | --site-admin) [--description TEXT] [--expires-at TIME] [--json] [options]',
  '       varsetd tokens list [--organization ORG] [--json] [options]',
  '       varsetd tokens revoke TOKEN_ID [options]',
  '',
  'Creates, lists and revokes tokens on the store directly, with no token: to start a new',
  'installation, or from automation. Servers may run on the store meanwhile: a new token works',
  'on them at once, a revoked one is refused from their next request. Each creation and revocation',
  "of an organization's or team's token is recorded in that organization's audit trail as made by",
  'the command line and the user running it (a site-admin token belongs to no organization).',
  '',
  'subcommands:',
  row('create', 'print the new token, and only it, once: `TOKEN=$(varsetd tokens create ...)`'),
  row('list', 'print every token (never a secret): id, kind, owner, description, created,'),
  row('', 'last used and expiry'),
  row('revoke TOKEN_ID', 'revoke a token of any kind at once'),
  '',
  'options:',
  row('--organization ORG', "create: the organization's token, replacing the one it had;"),
  row('', "list: only that organization's tokens"),
  row('--team ORG/TEAM', "create: the team's token, replacing the one it had; with --description,"),
  row('', 'one more token of the team, its description unique in the team'),
  row('--site-admin', 'create: one more site-admin token (beside VARSETD_ADMIN_TOKEN, which'),
  row('', 'starts leave alone)'),
  row('--description TEXT', "create: the token's description (at most 512 characters)"),
  row('--expires-at TIME', 'create: when it stops working, ISO 8601 in the future (two years)'),
  row('--json', 'print JSON instead: an object with the token (create) or an array (list)'),
  ...storeOptions(),
  '',
  'Exit code 0 on success, 2 for input varsetd refuses (one line on stderr, nothing changed), 1 otherwise.',
].join('\n');

const OPTIONS = {
  organization: 'string',
  team: 'string',
  'site-admin': 'boolean',
  description: 'string',
  'expires-at': 'string',
  json: 'boolean',
} as const;

/** `varsetd tokens SUBCOMMAND`. */
export async function run(args: string[]): Promise<number> {
  return finish('tokens', async () => {
    const { options, flags, positionals, settings } = readArgs(args, OPTIONS);
    const [subcommand, ...operands] = positionals;
    const given = (names: string[]) => names.filter((name) => options[name] !== undefined || flags.has(name));
    const refuseOthers = (allowed: string[]) => {
      const others = given(Object.keys(OPTIONS)).filter((name) => !allowed.includes(name));
      if (others.length > 0) throw new UsageError(`${subcommand} takes no --${others[0]}`);
    };
    if (subcommand === 'create') {
      if (operands.length > 0) throw new UsageError(`create takes no TOKEN_ID or other argument, got ${operands[0]}`);
      const owners = given(['organization', 'team', 'site-admin']);
      if (owners.length !== 1)
        throw new UsageError('create takes exactly one of --organization ORG, --team ORG/TEAM and --site-admin');
      const tokenOptions: TokenOptions = { description: options.description, expiredAt: options['expires-at'] };
      checkBody(TokenBody, {
        data: {
          type: 'authentication-tokens',
          attributes: { description: tokenOptions.description, 'expired-at': tokenOptions.expiredAt },
        },
      });
      const team = options.team === undefined ? undefined : teamPath(options.team);
      const created = await onStore(settings, async (ctx) => {
        if (options.organization !== undefined) {
          const { row: token, secret } = await orNotFound(
            createOrganizationToken(ctx, options.organization, tokenOptions),
            `organization ${options.organization}`,
          );
          return { token, secret, organization: options.organization, team: null };
        }
        if (team !== undefined) {
          const teamId = await findTeam(ctx, team.organization, team.name);
          const create = tokenOptions.description === undefined ? createTeamToken : createDescribedTeamToken;
          const { row: token, secret } = await create(ctx, teamId, tokenOptions);
          return { token, secret, organization: team.organization, team: team.name };
        }
        const { row: token, secret } = await createSiteAdminToken(ctx, tokenOptions);
        return { token, secret, organization: null, team: null };
      });
      const { token, secret } = created;
      if (!flags.has('json')) return console.log(secret);
      console.log(
        JSON.stringify({
          id: token.id,
          kind: token.kind,
          organization: created.organization,
          team: created.team,
          description: token.description,
          'created-at': token.created_at,
          'expired-at': token.expired_at,
          token: secret,
        }),
      );
      return;
    }
    if (subcommand === 'list') {
      if (operands.length > 0) throw new UsageError(`list takes no argument, got ${operands[0]}`);
      refuseOthers(['organization', 'json']);
      const organization = options.organization;
      const tokens = await onStore(settings, (ctx) =>
        orNotFound(listAllTokens(ctx, organization), `organization ${organization}`),
      );
      const listed = tokens.map((t) => ({
        id: t.id,
        kind: t.kind,
        organization: t.organization_name,
        team: t.team_name,
        description: t.description,
        'created-at': t.created_at,
        'last-used-at': t.last_used_at,
        'expired-at': t.expired_at,
      }));
      if (flags.has('json')) return console.log(JSON.stringify(listed));
      const owner = (t: (typeof listed)[number]) =>
        t.team !== null ? `${t.organization}/${t.team}` : (t.organization ?? '-');
      const rows = listed.map((t) => [
        t.id,
        t.kind,
        owner(t),
        t.description || '-',
        t['created-at'],
        t['last-used-at'] ?? 'never',
        t['expired-at'] ?? 'never',
      ]);
      if (rows.length > 0)
        console.log(table([['ID', 'KIND', 'OWNER', 'DESCRIPTION', 'CREATED', 'LAST USED', 'EXPIRES'], ...rows]));
      return;
    }
    if (subcommand === 'revoke') {
      if (operands.length !== 1) throw new UsageError('revoke takes one TOKEN_ID (varsetd tokens list shows them)');
      refuseOthers([]);
      const id = operands[0]!;
      const token = await onStore(settings, (ctx) => orNotFound(revokeTokenById(ctx, id), `token ${id}`));
      console.log(`revoked ${token.kind} token ${token.id}`);
      return;
    }
    throw new UsageError(
      subcommand === undefined
        ? 'name a subcommand: create, list or revoke (varsetd tokens --help)'
        : `unknown subcommand ${subcommand}: create, list or revoke`,
    );
  });
}

/** `ORG/TEAM`, as --team takes it. */
function teamPath(text: string): { organization: string; name: string } {
  const [organization, name, ...rest] = text.split('/');
  if (!organization || !name || rest.length > 0) throw new UsageError(`--team takes ORG/TEAM, got ${text}`);
  return { organization, name };
}

/** The id of the team of this name in the organization, as the API's team list by name finds it. */
async function findTeam(ctx: Context, organization: string, name: string): Promise<string> {
  const { rows } = await orNotFound(
    listOrganizationTeams(ctx, organization, { names: [name] }, { number: 1, size: 1 }),
    `organization ${organization}`,
  );
  if (!rows[0]) throw new UsageError(`team ${organization}/${name} not found`);
  return rows[0].id;
}
