import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  documentFileName,
  documentText,
  DOCUMENT_SUFFIX,
  exportOrganization,
  normalDocument,
} from '../imports/service.js';
import { finish, onStore, orNotFound, readArgs, UsageError } from './store-command.js';
import { row, storeOptions } from './usage.js';

export const HELP = [
  'usage: varsetd export --organization ORG [--format json|tf] [--out DIR] [options]',
  '',
  "Writes an organization's variable sets out, read from the store directly, with no token. No",
  'sensitive value is ever written: only that the variable is sensitive.',
  '',
  'options:',
  row('--organization ORG', 'the organization whose sets are exported'),
  row('--format json', 'one document per set, members in a fixed order, for review in git and'),
  row('', 'for `varsetd import --from DIR` (the default)'),
  row('--format tf', 'Terraform configuration for the tfe provider, with import blocks'),
  row('--out DIR', 'json: DIR/<set name>.varset.json for each set, removing the other'),
  row('', '*.varset.json files of DIR; tf: DIR/varsets.tf. Without it, json prints'),
  row('', 'an array of the documents, tf the configuration'),
  ...storeOptions(),
  '',
  'Exit code 0 on success, 2 for input varsetd refuses (one line on stderr, nothing written), 1 otherwise.',
].join('\n');

const OPTIONS = { organization: 'string', format: 'string', out: 'string' } as const;

/** `varsetd export`. */
export async function run(args: string[]): Promise<number> {
  return finish('export', async () => {
    const { options, positionals, settings } = readArgs(args, OPTIONS);
    if (positionals.length > 0) throw new UsageError(`export takes no argument, got ${positionals[0]}`);
    const organization = options.organization;
    if (organization === undefined) throw new UsageError('name the organization: --organization ORG');
    const format = options.format ?? 'json';
    if (format !== 'json' && format !== 'tf') throw new UsageError(`unknown format ${format}: json or tf`);
    const { documents, text } = await onStore(settings, async (ctx) => {
      const exported = await orNotFound(exportOrganization(ctx, organization), `organization ${organization}`);
      return { documents: exported.documents, text: format === 'tf' ? exported.terraform() : '' };
    });
    if (format === 'tf') {
      if (options.out === undefined) process.stdout.write(text);
      else {
        await mkdir(options.out, { recursive: true });
        await writeFile(path.join(options.out, 'varsets.tf'), text);
      }
      return;
    }
    if (options.out === undefined) {
      process.stdout.write(`${JSON.stringify(documents.map(normalDocument), null, 2)}\n`);
      return;
    }
    await writeDocuments(
      options.out,
      documents.map((document) => ({ file: documentFileName(document.name), text: documentText(document) })),
    );
  });
}

/** Writes each document, then removes the documents of DIR that no set has any more. */
async function writeDocuments(dir: string, files: { file: string; text: string }[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const { file, text } of files) await writeFile(path.join(dir, file), text);
  const written = new Set(files.map((f) => f.file));
  for (const entry of await readdir(dir)) {
    if (entry.endsWith(DOCUMENT_SUFFIX) && !written.has(entry)) await rm(path.join(dir, entry));
  }
}
