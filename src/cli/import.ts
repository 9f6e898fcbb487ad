import { readFile } from 'node:fs/promises';
import { getOrganization } from '../organizations/service.js';
import {
  readApiSource,
  readExportSource,
  runImport,
  shownSource,
  SourceError,
  type ImportReport,
  type ItemReport,
  type SourceOrganization,
} from '../imports/service.js';
import { readValues } from './import-values.js';
import { finish, onStore, orNotFound, readArgs, UsageError } from './store-command.js';
import { row, storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd import --from URL|DIR|FILE [--token-file FILE] --organization SOURCE [--into ORG] [--dry-run]',
  '                      [--no-create] [--values FILE] [--include-sensitive] [--json] [options]',
  '',
  "Brings an organization's variable sets, with the projects and workspaces they apply to and the",
  "workspaces' variables, into the store directly: from HCP Terraform, Terraform Enterprise or",
  'another varsetd (URL), or from the documents of varsetd export (DIR, or FILE: the one file of',
  'every document that export prints and the web UI downloads). Running it again changes',
  'nothing; after a change of the source it changes only what changed. A sensitive value cannot',
  'be read from an API: the variable comes without it and needs a value, unless --values gives it',
  'or, from another varsetd read with its site-admin token, --include-sensitive brings it over.',
  '',
  'options:',
  row('--from URL|DIR|FILE', "the source: an API's address (https://app.terraform.io), a folder or a file"),
  row('--token-file FILE', "a file holding the source's token (with a URL)"),
  row('--organization SOURCE', 'the organization read from the source'),
  row('--into ORG', 'the organization written to, which must exist (SOURCE)'),
  row('--dry-run', 'report what would be done, and write nothing'),
  row('--no-create', 'create no missing workspace or project: report and skip what needs one'),
  row('--values FILE', 'sensitive values by SET/KEY: JSON, or .env lines SET/KEY=VALUE'),
  row('--include-sensitive', 'read the sensitive values too (a varsetd source, its site-admin token)'),
  row('--page-size N', 'the page size asked of the source (100)'),
  row('--json', 'print the report as JSON'),
  ...storeOptions(),
  '',
  'Exit code 0 when the import ran (the report says what was skipped and why), 2 for input',
  'varsetd refuses, 1 when the source or the store failed (nothing of a set is written unless',
  'all of the source was read).',
].join('\n');

const OPTIONS = {
  from: 'string',
  'token-file': 'string',
  organization: 'string',
  into: 'string',
  'dry-run': 'boolean',
  'no-create': 'boolean',
  values: 'string',
  'include-sensitive': 'boolean',
  'page-size': 'string',
  json: 'boolean',
} as const;

const isUrl = (from: string) => /^https?:\/\//i.test(from);

async function readSource(
  from: string,
  options: Record<string, string | undefined>,
  organization: string,
  includeSensitive: boolean,
): Promise<SourceOrganization> {
  if (!isUrl(from)) {
    if (includeSensitive)
      throw new UsageError(
        '--include-sensitive reads a varsetd server: --from URL (an export holds no sensitive value)',
      );
    return readExportSource(from);
  }
  const tokenFile = options['token-file'];
  if (tokenFile === undefined) throw new UsageError('--from URL needs --token-file FILE');
  const token = (
    await readFile(tokenFile, 'utf8').catch(() => {
      throw new UsageError(`--token-file ${tokenFile} cannot be read`);
    })
  ).trim();
  const pageSize = Number(options['page-size'] ?? 100);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
    throw new UsageError('--page-size takes a whole number from 1 to 100');
  return readApiSource({ url: from, token, organization, pageSize, includeSensitive });
}

/** The report for people: counts, then every item that is not unchanged. */
function humanReport(report: ImportReport): string {
  const counts = (items: ItemReport[]) => {
    const by = new Map<string, number>();
    for (const item of items) by.set(item.result, (by.get(item.result) ?? 0) + 1);
    return items.length === 0 ? 'none' : [...by].map(([result, n]) => `${n} ${result}`).join(', ');
  };
  const detail = (item: ItemReport) =>
    `${item.result}${item.why ? ` (${item.why})` : ''}${item['value-needed'] ? ' (needs a value)' : ''}`;
  const lines = [
    `import from ${report.source} into ${report.organization}${report['include-sensitive'] ? ', sensitive values included' : ''}${report['dry-run'] ? ' (dry run: nothing written)' : ''}`,
  ];
  lines.push(
    `projects: ${counts(report.projects)}`,
    `workspaces: ${counts(report.workspaces)}`,
    `sets: ${counts(report.sets)}`,
    `workspace tags: ${counts(report['workspace-tags'])}`,
  );
  lines.push(`workspace variables: ${counts(report['workspace-variables'])}`);
  for (const item of [
    ...report.projects.map((p) => ({ ...p, label: `project ${p.name}` })),
    ...report.workspaces.map((w) => ({ ...w, label: `workspace ${w.name}` })),
  ]) {
    if (item.result !== 'unchanged') lines.push(`  ${item.label}: ${detail(item)}`);
  }
  for (const set of report.sets) {
    const changed = [
      ...set.variables.map((v) => ({ ...v, label: `variable ${v.category} ${v.key}` })),
      ...set.assignments.map((a) => ({ ...a, label: `${a.kind} ${a.name}` })),
    ];
    const shown = changed.filter((item) => item.result !== 'unchanged' || item['value-needed']);
    if (set.result !== 'unchanged' || shown.length > 0) lines.push(`  set ${set.name}: ${detail(set)}`);
    for (const item of shown) lines.push(`    ${item.label}: ${detail(item)}`);
  }
  for (const tag of report['workspace-tags'])
    if (tag.result !== 'unchanged') lines.push(`  workspace ${tag.workspace} tag ${tag.tag}: ${detail(tag)}`);
  for (const v of report['workspace-variables'])
    if (v.result !== 'unchanged' || v['value-needed'])
      lines.push(`  workspace ${v.workspace} variable ${v.category} ${v.key}: ${detail(v)}`);
  for (const s of report.skipped) lines.push(`  skipped ${s.what}: ${s.why}`);
  return lines.join('\n');
}

/** `varsetd import`. */
export async function run(args: string[]): Promise<number> {
  return finish('import', async () => {
    const { options, flags, positionals, settings } = readArgs(args, OPTIONS);
    if (positionals.length > 0) throw new UsageError(`import takes no argument, got ${positionals[0]}`);
    const { from, organization } = options;
    if (from === undefined) throw new UsageError('name the source: --from URL, --from DIR or --from FILE');
    if (organization === undefined) throw new UsageError("name the source's organization: --organization SOURCE");
    const values = options.values === undefined ? new Map<string, string>() : await readValues(options.values);
    // The whole source is read before anything is written: a source that fails leaves the store as it was.
    const includeSensitive = flags.has('include-sensitive');
    const source = await readSource(from, options, organization, includeSensitive).catch((error: unknown) => {
      if (error instanceof SourceError) throw new Error(`reading ${shownSource(from)}: ${error.message}`);
      throw error;
    });
    const into = options.into ?? organization;
    const report = await onStore(
      settings,
      async (ctx) => {
        await orNotFound(getOrganization(ctx, into), `organization ${into}`);
        return runImport(ctx, source, {
          source: shownSource(from),
          organization: into,
          dryRun: flags.has('dry-run'),
          includeSensitive,
          values,
          create: !flags.has('no-create'),
        });
      },
      { sealing: true },
    );
    console.log(flags.has('json') ? JSON.stringify(report) : humanReport(report));
  });
}
