import { readFile } from 'node:fs/promises';
import { UsageError } from './store-command.js';

/**
 * The file of `--values`: sensitive values by `set/key`, as JSON (`{"cloud/AWS_SECRET_ACCESS_KEY": "…"}`)
 * or `.env` lines (`cloud/AWS_SECRET_ACCESS_KEY=…`; blank lines and `#` comments ignored, a value in
 * double quotes taken as a JSON string). Read once; no value is ever repeated in an error.
 */
export async function readValues(file: string): Promise<Map<string, string>> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new UsageError(`--values ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  });
  const values = new Map<string, string>();
  if (text.trimStart().startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`--values ${file} is not valid JSON`);
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value !== 'string') throw new UsageError(`--values ${file}: the value of ${name} is not a string`);
      values.set(name, value);
    }
    return values;
  }
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const at = line.indexOf('=');
    if (at <= 0) throw new UsageError(`--values ${file}, line ${index + 1}: not SET/KEY=VALUE`);
    let value = line.slice(at + 1);
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      try {
        value = JSON.parse(value) as string;
      } catch {
        throw new UsageError(`--values ${file}, line ${index + 1}: a quoted value that is not a JSON string`);
      }
    }
    values.set(line.slice(0, at).trim(), value);
  });
  return values;
}
