import type { OrganizationRecord } from '../organizations/model.js';
import { OrganizationBody } from '../organizations/schemas.js';
import { createOrganization, listVisibleOrganizations } from '../organizations/service.js';
import { finish, onStore, readArgs, table, UsageError } from './store-command.js';
import { checkBody } from './schema-check.js';
import { row, storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd organizations create NAME --email EMAIL [--json] [options]',
  '       varsetd organizations list [--json] [options]',
  '',
  'Creates and lists organizations on the store directly, with no token: to start a new',
  'installation, or from automation. Servers may run on the store meanwhile. A creation is',
  "recorded in the organization's audit trail as made by the command line and the user running it.",
  '',
  'subcommands:',
  row('create NAME --email EMAIL', 'create an organization (with its owners team and default project),'),
  row('', 'checked as POST /organizations checks it; prints its name'),
  row('list', 'print every organization: name, email, created'),
  '',
  'options:',
  row('--email EMAIL', "the organization's email address (create)"),
  row('--json', 'print JSON instead: an object (create) or an array (list)'),
  ...storeOptions(),
  '',
  'Exit code 0 on success, 2 for input varsetd refuses (one line on stderr, nothing changed), 1 otherwise.',
].join('\n');

const OPTIONS = { email: 'string', json: 'boolean' } as const;

const described = (organization: OrganizationRecord) => ({
  name: organization.name,
  email: organization.email,
  'created-at': organization.created_at,
});

/** `varsetd organizations SUBCOMMAND`. */
export async function run(args: string[]): Promise<number> {
  return finish('organizations', async () => {
    const { options, flags, positionals, settings } = readArgs(args, OPTIONS);
    const [subcommand, ...operands] = positionals;
    const json = flags.has('json');
    if (subcommand === 'create') {
      if (operands.length !== 1)
        throw new UsageError('create takes one NAME: varsetd organizations create NAME --email EMAIL');
      const attributes = { name: operands[0], email: options.email };
      checkBody(OrganizationBody, { data: { type: 'organizations', attributes } });
      const organization = await onStore(settings, (ctx) => createOrganization(ctx, { ...attributes, settings: {} }));
      console.log(json ? JSON.stringify(described(organization)) : organization.name);
      return;
    }
    if (subcommand === 'list') {
      if (operands.length > 0 || options.email !== undefined) throw new UsageError('list takes no NAME and no --email');
      const organizations = await onStore(settings, async (ctx) => {
        const all: OrganizationRecord[] = [];
        for (let number = 1; ; number++) {
          const { rows, total } = await listVisibleOrganizations(ctx, {}, { number, size: 100 });
          all.push(...rows);
          if (rows.length === 0 || all.length >= total) return all;
        }
      });
      if (json) console.log(JSON.stringify(organizations.map(described)));
      else if (organizations.length > 0)
        console.log(
          table([['NAME', 'EMAIL', 'CREATED'], ...organizations.map((o) => [o.name, o.email, o.created_at])]),
        );
      return;
    }
    throw new UsageError(
      subcommand === undefined
        ? 'name a subcommand: create or list (varsetd organizations --help)'
        : `unknown subcommand ${subcommand}: create or list`,
    );
  });
}
